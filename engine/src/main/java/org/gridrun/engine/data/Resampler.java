package org.gridrun.engine.data;

/**
 * Resizes a window of an 8-bit RGB image to a square of output pixels, normalised per channel, the way PIL's
 * bilinear resize (which torchvision's transforms call) does it.
 *
 * <p>Separable: a horizontal pass over the rows the window's taps touch, then a vertical pass. Each output pixel is
 * a triangle-filter average of the source pixels around its centre, the filter stretched by the scale factor when
 * shrinking (PIL's antialiasing, so a 500-pixel side shrunk to 224 averages about two source pixels per output pixel
 * instead of sampling one); weights are normalised to sum to 1 and each pass rounds to 8 bits, as PIL stores its
 * intermediate image. Stateless: safe from several threads.
 */
final class Resampler {
    private Resampler() {
    }

    /** One axis: for output index i, the first source index and the weights of the taps from there. */
    private record Taps(int[] first, float[][] weights) {
        int lowest() {
            return first[0];
        }

        int highest() {
            int last = first.length - 1;
            int high = first[0] + weights[0].length;
            for (int i = 0; i <= last; i++) {
                high = Math.max(high, first[i] + weights[i].length);
            }
            return high;
        }
    }

    /** The taps of {@code out} outputs over source {@code [start, start + length)}, reading only {@code [from, to)}. */
    private static Taps taps(double start, double length, int out, int from, int to) {
        double scale = length / out;
        double stretch = Math.max(1, scale);
        double support = stretch;
        int[] first = new int[out];
        float[][] weights = new float[out][];
        for (int i = 0; i < out; i++) {
            double centre = start + (i + 0.5) * scale;
            int lo = Math.max(from, (int) Math.floor(centre - support + 0.5));
            int hi = Math.min(to, (int) Math.floor(centre + support + 0.5));
            if (hi <= lo) {
                lo = Math.min(to - 1, Math.max(from, (int) Math.floor(centre)));
                hi = lo + 1;
            }
            float[] w = new float[hi - lo];
            double sum = 0;
            for (int j = lo; j < hi; j++) {
                double t = Math.abs((j + 0.5 - centre) / stretch);
                double v = t < 1 ? 1 - t : 0;
                w[j - lo] = (float) v;
                sum += v;
            }
            if (sum == 0) {
                java.util.Arrays.fill(w, 1f / w.length);
            } else {
                for (int k = 0; k < w.length; k++) {
                    w[k] = (float) (w[k] / sum);
                }
            }
            first[i] = lo;
            weights[i] = w;
        }
        return new Taps(first, weights);
    }

    /**
     * Writes the {@code window} of {@code image} resized to {@code size × size}, mirrored when the window says so,
     * into {@code x} from {@code offset} (channels-last RGB), each value looked up in {@code table} (channel
     * {@code c}'s 256 normalised values at {@code c << 8}).
     */
    static void resize(DecodedImage image, CropWindow window, int size, float[] table, float[] x, int offset) {
        Taps columns = window.cut() ? taps(window.left(), window.width(), size, (int) window.left(),
                (int) (window.left() + window.width())) : taps(window.left(), window.width(), size, 0, image.width());
        Taps rows = window.cut() ? taps(window.top(), window.height(), size, (int) window.top(),
                (int) (window.top() + window.height())) : taps(window.top(), window.height(), size, 0, image.height());
        int rowLow = rows.lowest();
        int rowHigh = rows.highest();
        int width = image.width();
        byte[] src = image.rgb();
        int[] mid = new int[(rowHigh - rowLow) * size * 3];
        for (int r = rowLow; r < rowHigh; r++) {
            int srcRow = r * width * 3;
            int dst = (r - rowLow) * size * 3;
            for (int i = 0; i < size; i++, dst += 3) {
                float[] w = columns.weights()[i];
                int p = srcRow + columns.first()[i] * 3;
                float red = 0;
                float green = 0;
                float blue = 0;
                for (int k = 0; k < w.length; k++, p += 3) {
                    red += w[k] * (src[p] & 0xFF);
                    green += w[k] * (src[p + 1] & 0xFF);
                    blue += w[k] * (src[p + 2] & 0xFF);
                }
                mid[dst] = toByte(red);
                mid[dst + 1] = toByte(green);
                mid[dst + 2] = toByte(blue);
            }
        }
        boolean flip = window.flip();
        for (int o = 0; o < size; o++) {
            float[] w = rows.weights()[o];
            int base = (rows.first()[o] - rowLow) * size * 3;
            int out = offset + o * size * 3;
            for (int i = 0; i < size; i++) {
                int column = flip ? size - 1 - i : i;
                int p = base + column * 3;
                float red = 0;
                float green = 0;
                float blue = 0;
                for (int k = 0; k < w.length; k++, p += size * 3) {
                    red += w[k] * mid[p];
                    green += w[k] * mid[p + 1];
                    blue += w[k] * mid[p + 2];
                }
                int at = out + i * 3;
                x[at] = table[toByte(red)];
                x[at + 1] = table[1 << 8 | toByte(green)];
                x[at + 2] = table[2 << 8 | toByte(blue)];
            }
        }
    }

    private static int toByte(float v) {
        int rounded = (int) (v + 0.5f);
        return rounded < 0 ? 0 : Math.min(255, rounded);
    }
}
