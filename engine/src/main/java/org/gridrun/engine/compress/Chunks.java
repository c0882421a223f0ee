package org.gridrun.engine.compress;

/**
 * The per-thread scratch of a method that computes its codes a chunk at a time and packs them with
 * {@link BitPacker#writeAll} (or unpacks with {@link BitReader#readAll}): one packer, reader and code buffer for
 * each of the two parts of {@link Halves#split}, allocated once per instance.
 */
final class Chunks {
    /** Values whose codes are computed before they are packed. */
    static final int SIZE = 2048;
    /** What a thread's share of a large vector is a multiple of: whole bytes of codes at any width. */
    static final int ALIGN = 64;

    private final BitPacker[] packers = {new BitPacker(), new BitPacker()};
    private final BitReader[] readers = {new BitReader(), new BitReader()};
    private final int[][] codes = new int[2][SIZE];
    private final int[][] uniforms = new int[2][SIZE];
    private final double[][] sums = new double[2][SIZE];

    /** Part {@code part}'s packer, writing into {@code bytes} from bit {@code bitOffset}. */
    BitPacker packer(int part, byte[] bytes, long bitOffset) {
        return packers[part].reset(bytes, bitOffset);
    }

    /** Part {@code part}'s reader, reading {@code bytes} from bit {@code bitOffset}. */
    BitReader reader(int part, byte[] bytes, long bitOffset) {
        return readers[part].reset(bytes, bitOffset);
    }

    /** Part {@code part}'s buffer of {@link #SIZE} codes. */
    int[] codes(int part) {
        return codes[part];
    }

    /** Part {@code part}'s buffer of {@link #SIZE} 16-bit uniforms. */
    int[] uniforms(int part) {
        return uniforms[part];
    }

    /** Part {@code part}'s buffer of {@link #SIZE} doubles. */
    double[] sums(int part) {
        return sums[part];
    }
}
