package org.gridrun.engine.data;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import javax.imageio.IIOException;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Decodes JPEG and PNG files to RGB with the JDK's ImageIO; grayscale images are spread to three channels and CMYK
 * or YCCK JPEGs (which ImageIO refuses as images) are converted from their raw channels.
 *
 * <p>A JPEG that does not end with its end-of-image marker is refused as truncated: ImageIO would otherwise return it
 * with the missing rows grey and only a warning. Safe from several threads (each call has its own reader).
 */
final class ImageDecoder {
    /** What {@link #describe()} says. */
    static final String NAME = "the JDK's ImageIO";

    private static final int TAIL = 64;

    private ImageDecoder() {
    }

    /** Which decoder runs, for the log. */
    static String describe() {
        return NAME;
    }

    /** The RGB pixels of {@code file}; a file that cannot be decoded throws a {@link BadImageException}. */
    static DecodedImage decode(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BadImageException(file, "cannot read the file (" + e.getMessage() + ")", e);
        }
        boolean jpeg = bytes.length > 3 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xD8;
        if (jpeg && !endsWithEndOfImage(bytes)) {
            throw new BadImageException(file, "the JPEG has no end-of-image marker: the file is truncated", null);
        }
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                throw new BadImageException(file, "not a JPEG or PNG image (" + bytes.length + " bytes)", null);
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                try {
                    return rgb(reader.read(0));
                } catch (IIOException unsupported) {
                    if (!jpeg) {
                        throw unsupported;
                    }
                    return fromFourChannels(reader.readRaster(0, null), adobeTransform(bytes));
                }
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof BadImageException bad) {
                throw bad;
            }
            throw new BadImageException(file, "the decoder failed: " + e.getMessage(),
                    e instanceof IOException io ? io : null);
        }
    }

    private static boolean endsWithEndOfImage(byte[] bytes) {
        for (int i = bytes.length - 2; i >= Math.max(0, bytes.length - TAIL); i--) {
            if ((bytes[i] & 0xFF) == 0xFF && (bytes[i + 1] & 0xFF) == 0xD9) {
                return true;
            }
        }
        return false;
    }

    private static DecodedImage rgb(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        byte[] rgb = new byte[w * h * 3];
        if (image.getType() == BufferedImage.TYPE_3BYTE_BGR) {
            byte[] bgr = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
            for (int p = 0; p < rgb.length; p += 3) {
                rgb[p] = bgr[p + 2];
                rgb[p + 1] = bgr[p + 1];
                rgb[p + 2] = bgr[p];
            }
        } else if (image.getType() == BufferedImage.TYPE_BYTE_GRAY) {
            byte[] gray = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
            for (int i = 0, p = 0; i < gray.length; i++, p += 3) {
                rgb[p] = gray[i];
                rgb[p + 1] = gray[i];
                rgb[p + 2] = gray[i];
            }
        } else {
            int[] row = new int[w];
            for (int y = 0, p = 0; y < h; y++) {
                image.getRGB(0, y, w, 1, row, 0, w);
                for (int x = 0; x < w; x++, p += 3) {
                    rgb[p] = (byte) (row[x] >> 16);
                    rgb[p + 1] = (byte) (row[x] >> 8);
                    rgb[p + 2] = (byte) row[x];
                }
            }
        }
        return new DecodedImage(w, h, rgb);
    }

    /**
     * The Adobe APP14 marker's colour transform (0: CMYK stored inverted, 2: YCCK), or −1 when the file has none
     * (plain CMYK).
     */
    static int adobeTransform(byte[] bytes) {
        for (int i = 2; i + 16 < bytes.length; i++) {
            if ((bytes[i] & 0xFF) == 0xFF && (bytes[i + 1] & 0xFF) == 0xEE && bytes[i + 4] == 'A'
                    && bytes[i + 5] == 'd' && bytes[i + 6] == 'o' && bytes[i + 7] == 'b' && bytes[i + 8] == 'e') {
                return bytes[i + 15] & 0xFF;
            }
            if ((bytes[i] & 0xFF) == 0xFF && (bytes[i + 1] & 0xFF) == 0xDA) {
                break; // start of scan: no more markers before the image data
            }
        }
        return -1;
    }

    /** RGB from a four-channel JPEG's raw raster: CMYK (inverted when Adobe wrote it) or YCCK. */
    private static DecodedImage fromFourChannels(Raster raster, int transform) throws IIOException {
        if (raster.getNumBands() != 4) {
            throw new IIOException("unsupported JPEG with " + raster.getNumBands() + " channels");
        }
        int w = raster.getWidth();
        int h = raster.getHeight();
        int[] px = raster.getPixels(raster.getMinX(), raster.getMinY(), w, h, (int[]) null);
        byte[] rgb = new byte[w * h * 3];
        for (int i = 0, p = 0; i < px.length; i += 4, p += 3) {
            double c = px[i];
            double m = px[i + 1];
            double y = px[i + 2];
            double k = px[i + 3];
            if (transform == 2) {
                double cb = m - 128;
                double cr = y - 128;
                double luma = c;
                c = clamp(luma + 1.402 * cr);
                m = clamp(luma - 0.344136 * cb - 0.714136 * cr);
                y = clamp(luma + 1.772 * cb);
            }
            if (transform < 0) {
                c = 255 - c;
                m = 255 - m;
                y = 255 - y;
                k = 255 - k;
            }
            // here each channel holds 255 − ink, as Adobe stores it
            rgb[p] = (byte) Math.round(c * k / 255);
            rgb[p + 1] = (byte) Math.round(m * k / 255);
            rgb[p + 2] = (byte) Math.round(y * k / 255);
        }
        return new DecodedImage(w, h, rgb);
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(255, v));
    }
}
