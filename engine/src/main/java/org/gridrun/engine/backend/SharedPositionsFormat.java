package org.gridrun.engine.backend;

/**
 * Random-k's payload: the values at positions that every worker drew alike from a shared stream, each multiplied by
 * {@code scale}, as float32 in ascending order of position; the positions are not sent: {@code 32·kept} bits. Its
 * array is never changed once it is made.
 *
 * @param length    the number of gradient values
 * @param positions the kept positions, ascending, distinct, in [0, length)
 * @param scale     the factor each kept value is multiplied by (in float arithmetic)
 */
public record SharedPositionsFormat(int length, int[] positions, float scale) implements SparseListFormat {
    @Override
    public int kept() {
        return positions.length;
    }

    @Override
    public int payloadBytes() {
        return 4 * positions.length;
    }
}
