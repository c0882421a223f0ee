package org.gridrun.engine.compress;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link FloatCast}'s stochastic rounding to a float format with the Vector API: {@link FloatFormat#encode}'s integer
 * fast path on a vector of values at once, the rounding's carry computed without 64-bit arithmetic, the codes
 * narrowed and stored little-endian.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}. A vector holding any value the fast path does
 * not take (zero, subnormal, out of range, NaN) is encoded value by value with {@link FloatFormat#encode}, so every
 * code is the scalar one.
 */
final class VectorFloatCast {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED
            .withShape(VectorShape.forBitSize(FLOATS.vectorBitSize() / 2));
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_PREFERRED
            .withShape(VectorShape.forBitSize(FLOATS.vectorBitSize() / 4));
    private static final int LANES = FLOATS.length();

    private VectorFloatCast() {
    }

    /**
     * Encodes {@code g[at + j]} with the 32-bit uniform {@code u[j]} as code {@code e + j} of {@code bytes}
     * (two bytes each when {@code wide}, else one), for whole vectors of {@code j} in {@code [0, count)}; returns how
     * many it did.
     */
    static int encode(FloatFormat f, float[] g, int at, int count, int[] u, byte[] bytes, int e, boolean wide) {
        int shift = f.shift();
        int rebias = f.rebias();
        int fastLow = f.fastLow();
        int fastSpan = f.fastSpan();
        int maxCode = f.maxCode();
        int signShift = f.width() - 1;
        int j = 0;
        for (; j + LANES <= count; j += LANES) {
            IntVector raw = FloatVector.fromArray(FLOATS, g, at + j).reinterpretAsInts();
            IntVector abs = raw.and(0x7FFFFFFF);
            IntVector field = abs.lanewise(VectorOperators.LSHR, 23).sub(fastLow);
            if (field.compare(VectorOperators.LT, 0).or(field.compare(VectorOperators.GT, fastSpan)).anyTrue()) {
                for (int k = j; k < j + LANES; k++) {
                    put(bytes, e + k, f.encode(g[at + k], u[k] & 0xFFFFFFFFL), wide);
                }
                continue;
            }
            IntVector low = abs.lanewise(VectorOperators.LSHR, shift).sub(rebias);
            IntVector rest = abs.and((1 << shift) - 1).lanewise(VectorOperators.LSHL, 32 - shift);
            IntVector uniform = IntVector.fromArray(INTS, u, j);
            IntVector carry = rest.lanewise(VectorOperators.LSHR, 1).add(uniform.lanewise(VectorOperators.LSHR, 1))
                    .add(rest.and(uniform).and(1)).lanewise(VectorOperators.LSHR, 31);
            IntVector code = low.add(carry).min(maxCode)
                    .or(raw.lanewise(VectorOperators.LSHR, 31).lanewise(VectorOperators.LSHL, signShift));
            if (wide) {
                code.convertShape(VectorOperators.I2S, SHORTS, 0).reinterpretAsBytes()
                        .intoByteArray(bytes, 2 * (e + j), ByteOrder.LITTLE_ENDIAN);
            } else {
                code.convertShape(VectorOperators.I2B, BYTES, 0).reinterpretAsBytes()
                        .intoByteArray(bytes, e + j, ByteOrder.LITTLE_ENDIAN);
            }
        }
        return j;
    }

    private static void put(byte[] bytes, int e, int code, boolean wide) {
        if (wide) {
            bytes[2 * e] = (byte) code;
            bytes[2 * e + 1] = (byte) (code >>> 8);
        } else {
            bytes[e] = (byte) code;
        }
    }
}
