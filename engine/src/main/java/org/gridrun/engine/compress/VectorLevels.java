package org.gridrun.engine.compress;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LevelQuantizer}'s stochastic rounding to the binary exponential levels {@code ±2^-j},
 * {@code j = 0 … jmax} (nuq's default {@code mul = 0.5}), with the Vector API: the two levels around a value come
 * from the exponent bits of {@code |r|}, with no search, and the rounding is {@link LevelSearch#index}'s, lane by lane,
 * in the same double operations, so every code equals the scalar one.
 *
 * <p>Why it is exact. With {@code a = |r|} in {@code [2^-k, 2^(1−k))}, {@code k ≤ jmax}, and {@code m = a·2^k} in
 * {@code [1, 2)} (the mantissa of {@code a}, its exponent bits replaced by those of 1):
 * <ul>
 *   <li>{@code r > 0}: the levels around it are {@code 2^-k} (index {@code top − k}) and {@code 2^(1−k)}, and
 *       LevelSearch's fraction {@code (r − 2^-k)·2^k} is {@code m − 1}, both steps exact (Sterbenz, and a power of
 *       two);</li>
 *   <li>{@code r < 0}: the largest level at or below it is {@code −2^(1−k)} (index {@code k − 1}), and its fraction
 *       {@code (r + 2^(1−k))·2^k} is {@code 2 − m}, exactly {@code 1 − (m − 1)}; where {@code a} is exactly
 *       {@code 2^-k} LevelSearch takes the level {@code −2^-k} itself (index {@code k}, fraction 0) and this takes
 *       index {@code k − 1} with fraction 1: both give {@code k} whatever the uniform;</li>
 *   <li>{@code a < 2^-jmax} (zeros and subnormals included): between {@code −2^-jmax} (index {@code jmax}) and
 *       {@code 2^-jmax}, fraction {@code (r + 2^-jmax)·2^(jmax−1)}, the same two roundings as LevelSearch's;</li>
 *   <li>{@code a ≥ 1} (only a rounding error past the norm): the lower index is at least {@code top} for
 *       {@code r > 0} and at most −1 for {@code r < 0}, so the code clamped to {@code [0, top]} is LevelSearch's end
 *       level ({@code r = −1} exactly: index −1, fraction 1, code 0, as there).</li>
 * </ul>
 * The code is then the lower index plus one where {@code fraction + u·2^-16 ≥ 1}, the sum rounded in double as
 * LevelSearch's is before its truncation.
 *
 * <p>Every value must be finite, as it is wherever a bucket's norm is (LevelSearch gives a NaN 0; this does not
 * check). Nuq's level search took some 80 % of its encoding; this is about four times as fast as the search on
 * Gaussian values. Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}.
 */
final class VectorLevels {
    /**
     * Doubles and longs of the preferred shape, the floats and uniforms of as many lanes, and codes stored as a
     * vector of the preferred ints (half of it zeros, overwritten by the next vector). An instance method of the
     * Vector API compiles to its instruction only where its receiver's class is the only one profiled there: ints or
     * longs of a shape that no other kernel uses (256-bit ints beside the packers' 512-bit ones) send it back to the
     * per-lane Java. Only loads and conversions, whose species are constants, take the narrower shapes.
     */
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final int LANES = DOUBLES.length();
    private static final VectorSpecies<Float> FEW_FLOATS = VectorSpecies.of(float.class,
            VectorShape.forBitSize(32 * LANES));
    private static final VectorSpecies<Integer> FEW_INTS = VectorSpecies.of(int.class,
            VectorShape.forBitSize(32 * LANES));
    private static final long SIGN = 0x8000_0000_0000_0000L;
    private static final long MANTISSA = 0x000F_FFFF_FFFF_FFFFL;
    private static final long ONE = Double.doubleToRawLongBits(1.0);

    private VectorLevels() {
    }

    /**
     * Whether {@code levels} are {@code −1, −1/2, …, −2^-jmax, 2^-jmax, …, 1/2, 1} for some {@code jmax} below 1022,
     * the levels {@link #binaryCodes} rounds to.
     */
    static boolean binaryExponential(double[] levels) {
        int half = levels.length / 2;
        if (levels.length % 2 != 0 || half > 1022) {
            return false;
        }
        for (int j = 0; j < half; j++) {
            double power = Math.scalb(1.0, -j);
            if (levels[j] != -power || levels[levels.length - 1 - j] != power) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code codes[j] = search.index(g[at + j]·inverse, u[j])} for whole vectors of {@code j} in {@code [0, count)},
     * the levels being {@code ±2^-j}, {@code j ≤ jmax} ({@link #binaryExponential}), every value finite; returns how
     * many it did. {@code sums} is scratch of {@code count} doubles.
     *
     * <p>Two passes over the values, the first leaving each {@code fraction + u·2^-16} in {@code sums}, the second
     * the codes: one loop with every step compiles past C2's node budget for inlining, and the Vector API's calls
     * that it then leaves out run lane by lane in Java.
     */
    static int binaryCodes(float[] g, int at, int count, int[] u, int[] codes, double[] sums, double inverse,
                           int jmax) {
        int whole = Math.min(count, codes.length - INTS.length() + LANES) / LANES * LANES;
        fractions(g, at, whole, u, sums, inverse, jmax);
        lowerLevels(g, at, whole, sums, codes, inverse, jmax);
        return whole;
    }

    /**
     * {@code sums[j] = fraction + u[j]·2^-16} for {@code j} in {@code [0, count)}, a multiple of {@link #LANES}: the
     * fraction being {@code m − 1} where {@code r > 0} and {@code 2 − m} where {@code r < 0} (as
     * {@code (m − 1.5)·±1 + 0.5}, each step exact), {@code m} being {@code |r|} with the exponent of 1, and the middle
     * gap's {@code (r + 2^-jmax)·2^(jmax−1)} where {@code |r| < 2^-jmax}.
     */
    private static void fractions(float[] g, int at, int count, int[] u, double[] sums, double inverse, int jmax) {
        double smallest = Math.scalb(1.0, -jmax);
        double middleGap = Math.scalb(1.0, jmax - 1);
        for (int j = 0; j < count; j += LANES) {
            DoubleVector r = scaled(g, at + j, inverse);
            LongVector bits = r.reinterpretAsLongs();
            DoubleVector m = bits.and(MANTISSA).or(ONE).reinterpretAsDoubles();
            DoubleVector sign = bits.and(SIGN).or(ONE).reinterpretAsDoubles();
            DoubleVector fraction = m.sub(1.5).mul(sign).add(0.5)
                    .blend(r.add(smallest).mul(middleGap), r.abs().compare(VectorOperators.LT, smallest));
            DoubleVector uniform = (DoubleVector) IntVector.fromArray(FEW_INTS, u, j)
                    .convertShape(VectorOperators.I2D, DOUBLES, 0);
            fraction.add(uniform.mul(0x1.0p-16)).intoArray(sums, j);
        }
    }

    /**
     * {@code codes[j]}, the index of the level below {@code r} plus one where {@code sums[j] ≥ 1}, for {@code j} in
     * {@code [0, count)}: with {@code |r|} in {@code [2^-k, 2^(1−k))} and {@code d = min(k − 1 − jmax, 0)} (negative
     * outside the middle gap, 0 in it), {@code jmax − d = top − k} where {@code r > 0}, {@code jmax + d = k − 1} where
     * {@code r < 0}, {@code jmax} in the middle; clamped to {@code [0, top]} (only {@code |r| ≥ 1} leaves it). Stores
     * whole vectors of the preferred ints, {@code codes} being long enough, their upper lanes zeros that the next
     * vector or the scalar tail overwrites.
     */
    private static void lowerLevels(float[] g, int at, int count, double[] sums, int[] codes, double inverse,
                                    int jmax) {
        int top = 2 * jmax + 1;
        for (int j = 0; j < count; j += LANES) {
            LongVector bits = scaled(g, at + j, inverse).reinterpretAsLongs();
            LongVector d = bits.lanewise(VectorOperators.LSHL, 1).lanewise(VectorOperators.LSHR, 53).neg()
                    .add(1022 - jmax);
            d = d.and(d.lanewise(VectorOperators.ASHR, 63));
            LongVector lower = d.and(bits.lanewise(VectorOperators.ASHR, 63)).lanewise(VectorOperators.LSHL, 1).sub(d)
                    .add(jmax);
            // the sum is at least 0, and at least 1 where its bits are at least 1's
            LongVector up = DoubleVector.fromArray(DOUBLES, sums, j).reinterpretAsLongs().neg().add(ONE - 1)
                    .lanewise(VectorOperators.LSHR, 63);
            LongVector code = lower.add(up);
            code = code.sub(code.and(code.lanewise(VectorOperators.ASHR, 63))).sub(top);
            code = code.and(code.lanewise(VectorOperators.ASHR, 63)).add(top);
            ((IntVector) code.convertShape(VectorOperators.L2I, INTS, 0)).intoArray(codes, j);
        }
    }

    /** {@code g[i … i + LANES)·inverse} in double, as the scalar path computes it. */
    private static DoubleVector scaled(float[] g, int i, double inverse) {
        return ((DoubleVector) FloatVector.fromArray(FEW_FLOATS, g, i).convertShape(VectorOperators.F2D, DOUBLES, 0))
                .mul(inverse);
    }
}
