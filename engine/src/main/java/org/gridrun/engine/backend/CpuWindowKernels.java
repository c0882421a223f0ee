package org.gridrun.engine.backend;

import java.util.Arrays;

/**
 * The CPU loops of the window operations on channels-last (NHWC) images: im2col and its adjoint col2im, max
 * pooling, global average pooling and the option-A residual shortcut.
 *
 * <p>Every loop works on whole images, so {@link CpuParallel} may split a batch between threads by image.
 */
final class CpuWindowKernels {
    private CpuWindowKernels() {
    }

    /**
     * Writes the patches of images {@code [from, to)}: patch row {@code (n·outH + oy)·outW + ox} holds the window
     * at (oy, ox), kernel row by kernel column, each position's channels together; positions in the padding are 0.
     */
    static void im2col(float[] x, int xo, ConvGeometry g, float[] cols, int co, int from, int to) {
        windows(x, xo, g, cols, co, from, to, false);
    }

    /** The adjoint of {@link #im2col}: sets images {@code [from, to)} of {@code dx} to the sums of their patches. */
    static void col2im(float[] cols, int co, ConvGeometry g, float[] dx, int dxo, int from, int to) {
        Arrays.fill(dx, dxo + from * g.inputSize(), dxo + to * g.inputSize(), 0f);
        windows(dx, dxo, g, cols, co, from, to, true);
    }

    /**
     * Walks the windows of images {@code [from, to)} in patch-row order, pairing each run of image values with its
     * place in the patch matrix: copies the image into the patches ({@code adjoint} false, padding written as 0) or
     * adds the patches into the image ({@code adjoint} true, padding skipped).
     */
    private static void windows(float[] image, int io, ConvGeometry g, float[] cols, int co, int from, int to,
                                boolean adjoint) {
        int c = g.channels();
        int h = g.height();
        int w = g.width();
        int patch = g.patchSize();
        int run = g.kernelWidth() * c;
        for (int n = from; n < to; n++) {
            int base = io + n * g.inputSize();
            int row = co + n * g.outPositions() * patch;
            for (int oy = 0; oy < g.outHeight(); oy++) {
                for (int ox = 0; ox < g.outWidth(); ox++, row += patch) {
                    int at = row;
                    int ix0 = ox * g.stride() - g.padding();
                    boolean colsInside = ix0 >= 0 && ix0 + g.kernelWidth() <= w;
                    for (int ky = 0; ky < g.kernelHeight(); ky++) {
                        int iy = oy * g.stride() - g.padding() + ky;
                        boolean rowInside = iy >= 0 && iy < h;
                        if (rowInside && colsInside) {
                            pair(image, base + (iy * w + ix0) * c, cols, at, run, adjoint);
                            at += run;
                            continue;
                        }
                        for (int kx = 0; kx < g.kernelWidth(); kx++, at += c) {
                            int ix = ix0 + kx;
                            if (rowInside && ix >= 0 && ix < w) {
                                pair(image, base + (iy * w + ix) * c, cols, at, c, adjoint);
                            } else if (!adjoint) {
                                Arrays.fill(cols, at, at + c, 0f);
                            }
                        }
                    }
                }
            }
        }
    }

    /** Copies {@code image[i … i + n)} to {@code cols[p …]}, or with {@code adjoint} adds it back. */
    private static void pair(float[] image, int i, float[] cols, int p, int n, boolean adjoint) {
        if (adjoint) {
            for (int k = 0; k < n; k++) {
                image[i + k] += cols[p + k];
            }
        } else {
            System.arraycopy(image, i, cols, p, n);
        }
    }

    /**
     * Writes {@code filters} kernels of {@code w}, each kernel row by kernel column with the channels together, as
     * {@code out[c][(kH−1−ky, kW−1−kx)][f]}: turned by 180° and with input and output channels swapped.
     */
    static void flipKernels(float[] w, int wo, ConvGeometry g, int filters, float[] out, int oo) {
        int c = g.channels();
        int kh = g.kernelHeight();
        int kw = g.kernelWidth();
        int row = kh * kw * filters;
        for (int f = 0, src = wo; f < filters; f++) {
            for (int ky = 0; ky < kh; ky++) {
                for (int kx = 0; kx < kw; kx++) {
                    int dst = oo + ((kh - 1 - ky) * kw + (kw - 1 - kx)) * filters + f;
                    for (int ch = 0; ch < c; ch++, src++) {
                        out[dst + ch * row] = w[src];
                    }
                }
            }
        }
    }

    /**
     * Max pooling of images {@code [from, to)}: each window folded with {@link Math#max} in kernel order, starting
     * from its first position inside the image; positions in the padding are skipped, so they never win.
     */
    static void maxPool(float[] x, int xo, ConvGeometry g, float[] y, int yo, int from, int to) {
        int c = g.channels();
        int outImage = g.outPositions() * c;
        for (int n = from; n < to; n++) {
            int xBase = xo + n * g.inputSize();
            int dst = yo + n * outImage;
            for (int oy = 0; oy < g.outHeight(); oy++) {
                Span rows = Span.of(oy, g.stride(), g.padding(), g.kernelHeight(), g.height());
                for (int ox = 0; ox < g.outWidth(); ox++, dst += c) {
                    Span cols = Span.of(ox, g.stride(), g.padding(), g.kernelWidth(), g.width());
                    System.arraycopy(x, xBase + rows.first(cols, g), y, dst, c);
                    for (int iy = rows.from; iy < rows.to; iy++) {
                        for (int ix = cols.from; ix < cols.to; ix++) {
                            int src = xBase + (iy * g.width() + ix) * c;
                            for (int ch = 0; ch < c; ch++) {
                                y[dst + ch] = Math.max(y[dst + ch], x[src + ch]);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * The max-pooling backward pass of images {@code [from, to)}: each output's gradient goes to the first input of
     * its window (in kernel order, padding skipped) holding the window's maximum, found again from {@code x} (so it
     * does not matter whether the output was changed since, e.g. stored through a codec); every other input gets 0.
     */
    static void maxPoolBackward(float[] x, int xo, float[] dy, int dyo, ConvGeometry g,
                                float[] dx, int dxo, int from, int to) {
        int c = g.channels();
        int image = g.inputSize();
        int outImage = g.outPositions() * c;
        Arrays.fill(dx, dxo + from * image, dxo + to * image, 0f);
        int[] window = new int[g.kernelHeight() * g.kernelWidth()];
        int bound = CpuVectors.enabled ? VectorWindows.bound(c) : 0;
        int[] lanes = bound > 0 ? VectorWindows.lanes() : null;
        for (int n = from; n < to; n++) {
            int out = n * outImage;
            for (int oy = 0; oy < g.outHeight(); oy++) {
                Span rows = Span.of(oy, g.stride(), g.padding(), g.kernelHeight(), g.height());
                for (int ox = 0; ox < g.outWidth(); ox++, out += c) {
                    Span cols = Span.of(ox, g.stride(), g.padding(), g.kernelWidth(), g.width());
                    int count = 0;
                    for (int iy = rows.from; iy < rows.to; iy++) {
                        for (int ix = cols.from; ix < cols.to; ix++) {
                            window[count++] = n * image + (iy * g.width() + ix) * c;
                        }
                    }
                    if (bound > 0) {
                        VectorWindows.maxPoolBackward(x, xo, window, count, dy, dyo + out, dx, dxo, bound, lanes);
                    }
                    for (int ch = bound; ch < c; ch++) {
                        int at = window[0] + ch;
                        float max = x[xo + at];
                        for (int k = 1; k < count; k++) {
                            int src = window[k] + ch;
                            if (x[xo + src] > max) {
                                max = x[xo + src];
                                at = src;
                            }
                        }
                        dx[dxo + at] += dy[dyo + out + ch];
                    }
                }
            }
        }
    }

    /**
     * The image rows (or columns) {@code [from, to)} a window covers along one axis, the padding cut off.
     *
     * @param from the first covered index inside the image
     * @param to   one past the last
     */
    private record Span(int from, int to) {
        /** The span of window {@code o} of {@code kernel} positions moving by {@code stride} over a padded axis. */
        static Span of(int o, int stride, int padding, int kernel, int size) {
            int start = o * stride - padding;
            return new Span(Math.max(start, 0), Math.min(start + kernel, size));
        }

        /** The offset in an image of the first position of the window spanning these rows and {@code cols}. */
        int first(Span cols, ConvGeometry g) {
            return (from * g.width() + cols.from) * g.channels();
        }
    }

    /** The mean over positions of each channel of images {@code [from, to)}: {@code y} is batch × channels. */
    static void meanPool(float[] x, int xo, int positions, int channels, float[] y, int yo, int from, int to) {
        float inverse = 1f / positions;
        for (int n = from; n < to; n++) {
            int dst = yo + n * channels;
            Arrays.fill(y, dst, dst + channels, 0f);
            for (int p = 0, src = xo + n * positions * channels; p < positions; p++, src += channels) {
                for (int ch = 0; ch < channels; ch++) {
                    y[dst + ch] += x[src + ch];
                }
            }
            for (int ch = 0; ch < channels; ch++) {
                y[dst + ch] *= inverse;
            }
        }
    }

    /** The mean-pooling backward pass: every position of a channel gets that channel's gradient / positions. */
    static void meanPoolBackward(float[] dy, int dyo, int positions, int channels, float[] dx, int dxo, int from,
                                 int to) {
        float inverse = 1f / positions;
        for (int n = from; n < to; n++) {
            int src = dyo + n * channels;
            for (int p = 0, dst = dxo + n * positions * channels; p < positions; p++, dst += channels) {
                for (int ch = 0; ch < channels; ch++) {
                    dx[dst + ch] = dy[src + ch] * inverse;
                }
            }
        }
    }

    /**
     * The option-A shortcut of images {@code [from, to)}: every {@code stride}-th pixel in both directions, its
     * channels placed at {@code [before, before + g.channels())} of {@code outChannels}, the rest zero.
     * {@code backward} runs the adjoint, from {@code y} (the output's gradient) into {@code x}.
     */
    static void shortcut(float[] x, int xo, ConvGeometry g, int outChannels, int before, float[] y, int yo,
                         boolean backward, int from, int to) {
        int c = g.channels();
        int outH = (g.height() - 1) / g.stride() + 1;
        int outW = (g.width() - 1) / g.stride() + 1;
        int image = g.inputSize();
        int outImage = outH * outW * outChannels;
        if (backward) {
            Arrays.fill(x, xo + from * image, xo + to * image, 0f);
        } else {
            Arrays.fill(y, yo + from * outImage, yo + to * outImage, 0f);
        }
        for (int n = from; n < to; n++) {
            int dst = yo + n * outImage + before;
            for (int oy = 0; oy < outH; oy++) {
                for (int ox = 0; ox < outW; ox++, dst += outChannels) {
                    int src = xo + n * image + (oy * g.stride() * g.width() + ox * g.stride()) * c;
                    if (backward) {
                        System.arraycopy(y, dst, x, src, c);
                    } else {
                        System.arraycopy(x, src, y, dst, c);
                    }
                }
            }
        }
    }
}
