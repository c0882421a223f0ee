package org.gridrun.engine.backend;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CpuNormKernels}' row loops on the Vector API: a vector holds consecutive channels of one row, so each lane
 * does exactly what the scalar loop does for its channel (the same float operations on the same rows in the same
 * order) and the results are the scalar ones to the bit. Each method covers the channels {@code [0, bound)} with
 * {@code bound} a multiple of the vector length ({@link #bound}); the caller's scalar loop does the rest.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}. The scalar loops put a run's 16 to 64
 * channels in the inner loop, too short for the JIT's own vectoriser: they ran at 3 to 17 ns a value.
 */
final class VectorNormRows {
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    private static final int DOUBLE_LANES = DOUBLES.length();
    /** Double vectors a float vector converts into. */
    private static final int PARTS = LANES / DOUBLE_LANES;

    private VectorNormRows() {
    }

    /** The channels the vector loops cover: the largest multiple of the vector length up to {@code channels}. */
    static int bound(int channels) {
        return channels - channels % LANES;
    }

    /**
     * Adds to {@code partial[p + c]}, for {@code c < bound}, the sums of {@code x}'s rows {@code [from, to)} (row
     * {@code r} at {@code xo + r·channels}) run by run: each run of {@code run} rows summed in float in row order, the
     * run's sum then added in double, runs in order, as the scalar loop does.
     */
    static void sums(float[] x, int xo, int from, int to, int channels, int run, double[] partial, int p) {
        for (int r = from; r < to; r += run) {
            int rows = Math.min(to, r + run) - r;
            for (int c = 0, bound = bound(channels); c < bound; c += LANES) {
                FloatVector acc = FloatVector.zero(SPECIES);
                for (int k = 0, i = xo + r * channels + c; k < rows; k++, i += channels) {
                    acc = acc.add(FloatVector.fromArray(SPECIES, x, i));
                }
                addInDouble(acc, partial, p + c);
            }
        }
    }

    /** As {@link #sums}, of {@code (x − mean[c])²}, into {@code partialSquares}. */
    static void squares(float[] x, int xo, int from, int to, int channels, int run, float[] mean,
                        double[] partialSquares, int p) {
        for (int r = from; r < to; r += run) {
            int rows = Math.min(to, r + run) - r;
            for (int c = 0, bound = bound(channels); c < bound; c += LANES) {
                FloatVector m = FloatVector.fromArray(SPECIES, mean, c);
                FloatVector acc = FloatVector.zero(SPECIES);
                for (int k = 0, i = xo + r * channels + c; k < rows; k++, i += channels) {
                    FloatVector d = FloatVector.fromArray(SPECIES, x, i).sub(m);
                    acc = acc.add(d.mul(d));
                }
                addInDouble(acc, partialSquares, p + c);
            }
        }
    }

    /**
     * As {@link #sums}, of {@code dy} into {@code partial} and of {@code dy·(x − mean[c])} into
     * {@code partialProducts}; rows of {@code dy} at {@code dyo + r·channels}. With {@code y} (rows at
     * {@code yo + r·channels}), {@code dy} is first set to +0 where {@code y} is not positive, as the ReLU's backward
     * pass does, and written back.
     */
    static void gradientSums(float[] x, int xo, float[] y, int yo, float[] dy, int dyo, int from, int to,
                             int channels, int run, float[] mean, double[] partial, double[] partialProducts, int p) {
        FloatVector zero = FloatVector.zero(SPECIES);
        for (int r = from; r < to; r += run) {
            int rows = Math.min(to, r + run) - r;
            for (int c = 0, bound = bound(channels); c < bound; c += LANES) {
                FloatVector m = FloatVector.fromArray(SPECIES, mean, c);
                FloatVector sum = FloatVector.zero(SPECIES);
                FloatVector product = FloatVector.zero(SPECIES);
                for (int k = 0, i = xo + r * channels + c, j = dyo + r * channels + c, o = yo + r * channels + c;
                     k < rows; k++, i += channels, j += channels, o += channels) {
                    FloatVector g = FloatVector.fromArray(SPECIES, dy, j);
                    if (y != null) {
                        g = zero.blend(g, FloatVector.fromArray(SPECIES, y, o).compare(VectorOperators.GT, 0f));
                        g.intoArray(dy, j);
                    }
                    sum = sum.add(g);
                    product = product.add(g.mul(FloatVector.fromArray(SPECIES, x, i).sub(m)));
                }
                addInDouble(sum, partial, p + c);
                addInDouble(product, partialProducts, p + c);
            }
        }
    }

    /** {@code to[at + l] += (double) v[l]} for every lane {@code l}. */
    private static void addInDouble(FloatVector v, double[] to, int at) {
        for (int part = 0; part < PARTS; part++) {
            int i = at + part * DOUBLE_LANES;
            DoubleVector.fromArray(DOUBLES, to, i)
                    .add((DoubleVector) v.convertShape(VectorOperators.F2D, DOUBLES, part)).intoArray(to, i);
        }
    }

    /**
     * {@code y = (x − mean)·scale + shift}, then {@code max(·, 0)} with {@code relu}, on rows {@code [from, to)}
     * for {@code c < bound}; {@code y} may be {@code x}.
     */
    static void normalize(float[] x, int xo, float[] y, int yo, int from, int to, int channels, float[] mean,
                          float[] scale, float[] shift, boolean relu) {
        int bound = bound(channels);
        for (int r = from; r < to; r++) {
            int src = xo + r * channels;
            int dst = yo + r * channels;
            for (int c = 0; c < bound; c += LANES) {
                FloatVector v = FloatVector.fromArray(SPECIES, x, src + c).sub(FloatVector.fromArray(SPECIES, mean, c))
                        .mul(FloatVector.fromArray(SPECIES, scale, c)).add(FloatVector.fromArray(SPECIES, shift, c));
                if (relu) {
                    v = v.lanewise(VectorOperators.MAX, 0f);
                }
                v.intoArray(y, dst + c);
            }
        }
    }

    /**
     * {@code dx = k·dy + kx·(x − mean) + k0} on rows {@code [from, to)} for {@code c < bound}; {@code dx} may be
     * {@code dy}.
     */
    static void gradient(float[] x, int xo, float[] dy, int dyo, float[] dx, int dxo, int from, int to,
                         int channels, float[] mean, float[] k, float[] kx, float[] k0) {
        int bound = bound(channels);
        for (int r = from; r < to; r++) {
            int xs = xo + r * channels;
            int ds = dyo + r * channels;
            int dd = dxo + r * channels;
            for (int c = 0; c < bound; c += LANES) {
                FloatVector centred = FloatVector.fromArray(SPECIES, x, xs + c)
                        .sub(FloatVector.fromArray(SPECIES, mean, c));
                FloatVector.fromArray(SPECIES, k, c).mul(FloatVector.fromArray(SPECIES, dy, ds + c))
                        .add(FloatVector.fromArray(SPECIES, kx, c).mul(centred))
                        .add(FloatVector.fromArray(SPECIES, k0, c)).intoArray(dx, dd + c);
            }
        }
    }
}
