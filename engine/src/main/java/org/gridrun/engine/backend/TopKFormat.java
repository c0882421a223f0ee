package org.gridrun.engine.backend;

/**
 * Top-k's payload: the {@code kept} positions of largest magnitude, ascending, {@link SparseListFormat#indexWidth}
 * bits each, then their values as float32, no count: {@code kept·(indexWidth + 32)} bits. Magnitudes rank as the
 * bits of {@code |g|} with every NaN one above infinity; equal magnitudes keep the lower positions.
 *
 * @param length the number of gradient values
 * @param kept   how many are listed, in [1, length] (0 only for an empty gradient)
 */
public record TopKFormat(int length, int kept) implements SparseListFormat {
    /** Validates the count. */
    public TopKFormat {
        if (length < 0 || kept < 0 || kept > length || (kept == 0 && length > 0)) {
            throw new IllegalArgumentException("top " + kept + " of " + length + " values");
        }
    }

    /** The bits of the positions. */
    public long indexBits() {
        return (long) kept * SparseListFormat.indexWidth(length);
    }

    @Override
    public int payloadBytes() {
        return (int) ((indexBits() + 32L * kept + 7) / 8);
    }
}
