package org.gridrun.engine.data;

/**
 * Arrays one thread reuses from one image to the next, each grown when an image needs more, so decoding and
 * resizing allocate only while the largest image so far grows. Not thread-safe: one per thread.
 */
final class ReusedBuffers {
    private final byte[][] bytes;
    private final int[][] ints;

    /** {@code byteArrays} byte arrays and {@code intArrays} int arrays, all empty. */
    ReusedBuffers(int byteArrays, int intArrays) {
        this.bytes = new byte[byteArrays][0];
        this.ints = new int[intArrays][0];
    }

    /** Byte array {@code which}, at least {@code length} long; its contents are left from earlier use. */
    byte[] bytes(int which, int length) {
        if (bytes[which].length < length) {
            bytes[which] = new byte[length];
        }
        return bytes[which];
    }

    /** Int array {@code which}, at least {@code length} long; its contents are left from earlier use. */
    int[] ints(int which, int length) {
        if (ints[which].length < length) {
            ints[which] = new int[length];
        }
        return ints[which];
    }
}
