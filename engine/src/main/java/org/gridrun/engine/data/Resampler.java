package org.gridrun.engine.data;

import java.util.Arrays;

/**
 * Pillow's bilinear resize of 8-bit RGB images, in its integer arithmetic, writing normalised floats.
 *
 * <p>Like Pillow's {@code ImagingResample}, the resize is separable, horizontal pass first: output pixel {@code i}
 * of an axis resized from {@code in} to {@code out} pixels is centred on source coordinate {@code (i + ½)·s} with
 * {@code s = in/out}, and averages the source pixels within {@code max(s, 1)} of that centre, weighted by a
 * triangle {@code 1 − |d|/max(s, 1)}. When shrinking, the triangle widens with the scale, so every source pixel
 * contributes (Pillow's antialiasing; a plain two-tap bilinear would alias). Weights are normalised, rounded to
 * 22-bit fixed point, each pass rounds to bytes, as Pillow's 8-bit path does; so on the same decoded pixels the
 * result is Pillow's, which is what torchvision's {@code Resize} and {@code RandomResizedCrop} call on the PIL
 * images of an ImageFolder. The golden values in the tests were computed with Pillow 9.4.
 *
 * <p>Only a window of the resized image is computed (the centre crop of the evaluation view), from only the source
 * rows it needs. Each thread keeps its scratch rows; the taps are computed per call (a few hundred per axis).
 */
final class Resampler {
    private static final int PRECISION_BITS = 32 - 8 - 2;
    private static final int HALF = 1 << (PRECISION_BITS - 1);

    private final ThreadLocal<ReusedBuffers> scratch = ThreadLocal.withInitial(() -> new ReusedBuffers(1, 1));

    /**
     * Resizes {@code box} of {@code image} to {@code outWidth × outHeight} and writes the {@code size × size} window
     * at ({@code windowX}, {@code windowY}) of the result, mirrored left to right when {@code flip}, into
     * {@code x[offset …]}, channels-last, each value {@code v} of channel {@code c} as {@code table[c·256 + v]}.
     */
    void resize(RgbImage image, CropBox box, int outWidth, int outHeight, int windowX, int windowY, int size,
            boolean flip, float[] table, float[] x, int offset) {
        if (box.left() + box.width() > image.width() || box.top() + box.height() > image.height()) {
            throw new IllegalArgumentException("crop box " + box + " reaches outside the " + image.width() + "×"
                    + image.height() + " image");
        }
        Taps columns = new Taps(box.width(), outWidth, windowX, size);
        Taps rows = new Taps(box.height(), outHeight, windowY, size);
        int firstRow = rows.first[0];
        int lastRow = rows.first[size - 1] + rows.count[size - 1];
        ReusedBuffers own = scratch.get();
        int stride = 3 * size;
        byte[] narrow = own.bytes(0, (lastRow - firstRow) * stride);
        for (int r = firstRow; r < lastRow; r++) {
            horizontal(image, (box.top() + r) * image.width() + box.left(), columns, narrow, (r - firstRow) * stride);
        }
        int[] sums = own.ints(0, stride);
        for (int oy = 0; oy < size; oy++) {
            Arrays.fill(sums, HALF);
            int taps = rows.count[oy];
            for (int k = 0; k < taps; k++) {
                int weight = rows.weights[oy * rows.ksize + k];
                int from = (rows.first[oy] + k - firstRow) * stride;
                for (int j = 0; j < stride; j++) {
                    sums[j] += (narrow[from + j] & 0xFF) * weight;
                }
            }
            int out = offset + oy * stride;
            for (int ox = 0; ox < size; ox++) {
                int dst = out + 3 * (flip ? size - 1 - ox : ox);
                for (int c = 0; c < 3; c++) {
                    x[dst + c] = table[c << 8 | clip8(sums[3 * ox + c])];
                }
            }
        }
    }

    /** One source row (starting at pixel {@code start}) through the column taps into {@code out[at …]}. */
    private static void horizontal(RgbImage image, int start, Taps columns, byte[] out, int at) {
        byte[] src = image.pixels();
        for (int ox = 0; ox < columns.size; ox++) {
            int r = HALF;
            int g = HALF;
            int b = HALF;
            int p = 3 * (start + columns.first[ox]);
            int w = ox * columns.ksize;
            for (int k = 0; k < columns.count[ox]; k++, p += 3) {
                int weight = columns.weights[w + k];
                r += (src[p] & 0xFF) * weight;
                g += (src[p + 1] & 0xFF) * weight;
                b += (src[p + 2] & 0xFF) * weight;
            }
            out[at + 3 * ox] = (byte) clip8(r);
            out[at + 3 * ox + 1] = (byte) clip8(g);
            out[at + 3 * ox + 2] = (byte) clip8(b);
        }
    }

    private static int clip8(int sum) {
        int v = sum >> PRECISION_BITS;
        return v < 0 ? 0 : Math.min(v, 255);
    }

    /**
     * The source pixels and fixed-point weights of output pixels {@code [from, from + size)} of one axis resized
     * from {@code in} to {@code out} pixels: Pillow's {@code precompute_coeffs} and {@code normalize_coeffs_8bpc}.
     */
    static final class Taps {
        final int size;
        final int ksize;
        final int[] first;
        final int[] count;
        final int[] weights;

        Taps(int in, int out, int from, int size) {
            double scale = (double) in / out;
            double filterScale = Math.max(scale, 1.0);
            double support = filterScale;
            this.size = size;
            this.ksize = (int) Math.ceil(support) * 2 + 1;
            this.first = new int[size];
            this.count = new int[size];
            this.weights = new int[size * ksize];
            double[] k = new double[ksize];
            for (int i = 0; i < size; i++) {
                double centre = (from + i + 0.5) * scale;
                int min = Math.max(0, (int) (centre - support + 0.5));
                int n = Math.min(in, (int) (centre + support + 0.5)) - min;
                double total = 0;
                for (int t = 0; t < n; t++) {
                    k[t] = triangle((t + min - centre + 0.5) / filterScale);
                    total += k[t];
                }
                for (int t = 0; t < n; t++) {
                    double w = total != 0 ? k[t] / total : k[t];
                    weights[i * ksize + t] = (int) (w < 0 ? -0.5 + w * (1 << PRECISION_BITS)
                            : 0.5 + w * (1 << PRECISION_BITS));
                }
                first[i] = min;
                count[i] = n;
            }
        }

        private static double triangle(double d) {
            double a = Math.abs(d);
            return a < 1.0 ? 1.0 - a : 0.0;
        }
    }
}
