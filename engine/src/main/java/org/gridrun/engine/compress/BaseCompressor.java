package org.gridrun.engine.compress;

import java.util.Objects;

/**
 * What the built-in compressors share: the seed and stream of their random numbers, payload reuse, and the checks
 * of {@code encode} and {@code decode} arguments.
 */
abstract class BaseCompressor implements Compressor {
    protected final long seed;
    protected final long stream;
    private Payload reusable;

    BaseCompressor(long seed, long stream) {
        this.seed = seed;
        this.stream = stream;
    }

    /**
     * A payload of {@code bits} bits, {@code sideBits} of them side information ({@link Payload#sideBits()}), for
     * {@code elements} values, reusing the previous one when it has that shape.
     */
    protected final Payload payload(long bits, long sideBits, int elements) {
        Payload p = reusable;
        if (p == null || p.bits() != bits || p.sideBits() != sideBits || p.elements() != elements) {
            p = new Payload(new byte[Payload.byteCount(bits)], bits, sideBits, elements);
            reusable = p;
        }
        return p;
    }

    /** Fails unless {@code [offset, offset + length)} lies inside {@code array}. */
    protected static void checkRange(float[] array, int offset, int length) {
        Objects.requireNonNull(array, "array");
        if (offset < 0 || length < 0 || offset > array.length - length) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + ((long) offset + length)
                    + ") outside an array of " + array.length);
        }
    }

    /** Drops the reusable payload; subclasses clear their own state and call this. */
    @Override
    public void reset() {
        reusable = null;
    }

    @Override
    public String toString() {
        return name() + " " + config();
    }
}
