package org.gridrun.engine.compress;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link Smaq}'s records with the Vector API: the scalar record's masks and selections lane by lane, in the same
 * float operations and order, so every record equals the scalar one.
 *
 * <p>An escape's magnitude can reach {@code 2^24}, past where {@link VectorRounding#truncate} is exact, so an escaping
 * lane is left as {@link #ESCAPED} (no record is all ones) for the scalar record to fill. Loaded only when
 * {@link org.gridrun.engine.simd.Simd#enabled()}.
 */
final class VectorRecords {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final int LANES = FLOATS.length();
    /** What an escaping lane holds. */
    static final int ESCAPED = -1;

    private VectorRecords() {
    }

    /**
     * The records of {@code d = g[at + j] − mean} rounded with uniforms {@code u[j]}, for whole vectors of {@code j}
     * in {@code [0, n)}, escapes as {@link #ESCAPED}; returns how many it did. Arguments as Smaq's record takes them.
     */
    static int records(float[] g, int at, int n, float mean, float inverse, int limit, int escapeLimit, float range,
                       int mainScale, int outlierScale, int[] u, int[] codes) {
        int usable = inverse != 0f ? 1 : 0;
        int j = 0;
        for (; j + LANES <= n; j += LANES) {
            IntVector raw = FloatVector.fromArray(FLOATS, g, at + j).sub(mean).reinterpretAsInts();
            IntVector abs = raw.and(0x7FFFFFFF);
            // magnitude bits, NaN's (above infinity's) made 0: the difference is negative, all ones shifted, for others
            IntVector bits = abs.and(abs.sub(0x7F800001).lanewise(VectorOperators.ASHR, 31));
            IntVector outlier = bits.neg().add(limit).lanewise(VectorOperators.LSHR, 31);
            IntVector escape = bits.neg().add(escapeLimit).lanewise(VectorOperators.ASHR, 31);
            IntVector sign = raw.lanewise(VectorOperators.LSHR, 31).and(bits.neg().lanewise(VectorOperators.LSHR, 31))
                    .and(usable);
            FloatVector scaled = bits.reinterpretAsFloats().mul(inverse);
            IntVector main = scaled.mul((float) mainScale).reinterpretAsInts();
            IntVector far = scaled.sub(1f).min(range).mul((float) outlierScale).reinterpretAsInts();
            FloatVector t = main.lanewise(VectorOperators.XOR, main.lanewise(VectorOperators.XOR, far)
                    .and(outlier.neg())).reinterpretAsFloats();
            IntVector magnitude = VectorRounding.truncate(t.mul(0x1.0p16f)).add(IntVector.fromArray(INTS, u, j))
                    .lanewise(VectorOperators.ASHR, 16)
                    .min(outlier.neg().lanewise(VectorOperators.LSHR, 1).or(mainScale));
            IntVector plain = outlier.or(magnitude.lanewise(VectorOperators.LSHL, 1))
                    .or(sign.lanewise(VectorOperators.LSHL, outlier.lanewise(VectorOperators.LSHL, 1).add(5)));
            plain.or(escape).intoArray(codes, j);
        }
        return j;
    }
}
