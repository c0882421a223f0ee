package org.gridrun.engine.data;

import java.awt.image.Raster;

/**
 * CMYK and YCCK JPEG pixels to RGB, as Pillow (and so torchvision's ImageFolder) converts them.
 *
 * <p>Pillow reads every CMYK JPEG with Adobe's convention, stored value = 255 − ink, and converts ink to RGB by
 * {@code R = (255 − K) − (255 − K)·C/255} in integers (its {@code cmyk2rgb}); in stored values that is
 * {@code R = k − k·(255 − c)/255}. A YCCK JPEG stores C, M, Y as a YCbCr triple, which libjpeg turns back into stored
 * CMY as {@code 255 − RGB(Y, Cb, Cr)} with its fixed-point tables, reproduced here for the raw rasters ImageIO
 * reads; libjpeg-turbo makes that step itself.
 */
final class Cmyk {
    private static final int SCALE_BITS = 16;
    private static final int HALF = 1 << (SCALE_BITS - 1);
    private static final int FIX_1_402 = fix(1.40200);
    private static final int FIX_0_71414 = fix(0.71414);
    private static final int FIX_0_34414 = fix(0.34414);
    private static final int FIX_1_772 = fix(1.77200);

    private Cmyk() {
    }

    /** Converts {@code pixels} stored-CMYK pixels (4 bytes each) of {@code cmyk} into RGB bytes of {@code rgb}. */
    static void toRgb(byte[] cmyk, int pixels, byte[] rgb) {
        for (int p = 0; p < pixels; p++) {
            int k = cmyk[4 * p + 3] & 0xFF;
            for (int c = 0; c < 3; c++) {
                rgb[3 * p + c] = (byte) channel(cmyk[4 * p + c] & 0xFF, k);
            }
        }
    }

    /** The RGB image of a raw four-band JPEG raster: stored CMYK, or YCCK when {@code ycck}. */
    static RgbImage toRgb(Raster raster, boolean ycck) {
        int width = raster.getWidth();
        int height = raster.getHeight();
        int[] samples = raster.getPixels(raster.getMinX(), raster.getMinY(), width, height, (int[]) null);
        byte[] cmyk = new byte[samples.length];
        for (int p = 0; p < samples.length; p += 4) {
            if (ycck) {
                storedCmy(samples[p], samples[p + 1], samples[p + 2], cmyk, p);
            } else {
                cmyk[p] = (byte) samples[p];
                cmyk[p + 1] = (byte) samples[p + 1];
                cmyk[p + 2] = (byte) samples[p + 2];
            }
            cmyk[p + 3] = (byte) samples[p + 3];
        }
        byte[] rgb = new byte[3 * width * height];
        toRgb(cmyk, width * height, rgb);
        return new RgbImage(width, height, rgb);
    }

    /** One RGB channel from stored values: Pillow's {@code nk − MULDIV255(ink, nk)} with {@code nk = k}. */
    static int channel(int stored, int k) {
        int product = (255 - stored) * k + 128;
        return k - (((product >> 8) + product) >> 8);
    }

    /** libjpeg's {@code ycck_cmyk_convert} of one pixel's Y, Cb, Cr into stored C, M, Y at {@code out[at]}. */
    private static void storedCmy(int y, int cb, int cr, byte[] out, int at) {
        int red = y + ((FIX_1_402 * (cr - 128) + HALF) >> SCALE_BITS);
        int green = y + ((-FIX_0_34414 * (cb - 128) - FIX_0_71414 * (cr - 128) + HALF) >> SCALE_BITS);
        int blue = y + ((FIX_1_772 * (cb - 128) + HALF) >> SCALE_BITS);
        out[at] = (byte) clamp(255 - red);
        out[at + 1] = (byte) clamp(255 - green);
        out[at + 2] = (byte) clamp(255 - blue);
    }

    private static int clamp(int value) {
        return Math.max(0, Math.min(255, value));
    }

    private static int fix(double x) {
        return (int) (x * (1 << SCALE_BITS) + 0.5);
    }
}
