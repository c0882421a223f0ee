package org.gridrun.engine.compress;

import org.gridrun.engine.backend.SparseListFormat;
import org.gridrun.engine.backend.ThresholdFormat;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * The wire format the sparsifiers share: a list of positions and their float32 values, bit-packed.
 *
 * <p>For a gradient of {@code n} values an index takes {@code w = max(1, ceil(log2 n))} bits. A list of {@code k}
 * entries is the {@code k} indices in ascending order, {@code w} bits each, followed by the {@code k} values as
 * IEEE 754 float32 in the same order, all packed contiguously least significant bit first: {@code k·(w + 32)} bits.
 * When the receiver cannot know {@code k} from {@code n} alone (threshold, DGC), the list is preceded by {@code k}
 * in {@link #countWidth(int) max(1, ceil(log2 (n + 1)))} bits. Positions not listed decode to zero.
 */
final class SparseFormat {
    private SparseFormat() {
    }

    /** Bits per index for a gradient of {@code n} values: {@code max(1, ceil(log2 n))}. */
    static int indexWidth(int n) {
        return SparseListFormat.indexWidth(n);
    }

    /** Bits of an entry count that may be anything in [0, n]: {@code max(1, ceil(log2 (n + 1)))}. */
    static int countWidth(int n) {
        return ThresholdFormat.countWidth(n);
    }

    /** Bits of a list of {@code k} entries of a gradient of {@code n} values, without a count. */
    static long listBits(int n, int k) {
        return (long) k * (indexWidth(n) + 32);
    }

    /**
     * Writes {@code indices[0 … k)} (ascending, relative to {@code offset}) and then their values, a NaN as the
     * canonical NaN: which NaN arithmetic gives (DGC's accumulators) is the processor's, and a GPU encoder writes the
     * same.
     */
    static void write(BitPacker packer, float[] g, int offset, int n, int[] indices, int k) {
        int width = indexWidth(n);
        for (int j = 0; j < k; j++) {
            packer.write(indices[j], width);
        }
        for (int j = 0; j < k; j++) {
            packer.write(Float.floatToIntBits(g[offset + indices[j]]), 32);
        }
    }

    /** Zeroes {@code out[offset … offset + n)} and reads a list of {@code k} entries into it. */
    static void read(BitReader reader, float[] out, int offset, int n, int k, int[] scratch) {
        java.util.Arrays.fill(out, offset, offset + n, 0f);
        int width = indexWidth(n);
        for (int j = 0; j < k; j++) {
            int index = reader.read(width);
            if (index >= n) {
                throw new IllegalArgumentException("index " + index + " outside a gradient of " + n + " values");
            }
            scratch[j] = index;
        }
        for (int j = 0; j < k; j++) {
            out[offset + scratch[j]] = reader.readFloat();
        }
    }

    /** The value of a {@code DOUBLE} key that must lie in (0, 1], failing with a message naming it. */
    static double fraction(Settings params, String name) {
        double v = params.doubleValue(name);
        if (!(v > 0 && v <= 1)) {
            throw new ConfigException(name + " must be in (0, 1], found " + ValueType.show(v));
        }
        return v;
    }
}
