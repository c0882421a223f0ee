package org.gridrun.engine.compress;

import java.util.Arrays;
import java.util.Objects;

/**
 * What one worker puts on the wire for one gradient: real bytes and the exact number of meaningful bits.
 *
 * <p>{@code bytes().length == ceil(bits / 8)} always; bits past {@code bits} in the last byte are zero. The element
 * count says how many gradient values the payload encodes; every receiver knows it from the model's shape, so it is
 * not part of the bits on the wire.
 *
 * <p>Of the bits, {@link #sideBits()} carry no value's code: headers, scales and norms, width maps, indices and
 * counts; the rest, {@link #valueBits()}, are the codes of the values themselves (escapes and continuations
 * included). The split is what the compressor wrote, counted while writing, and it is what {@code grid-run compress}
 * and the trainer's {@code side_bits} report; it travels with the payload but is not part of the bits on the wire.
 *
 * <p>{@link #bytes()} returns the array itself, not a copy: a compressor may reuse one payload's bytes for its next
 * {@code encode}, so a payload is valid until then; {@link #copy()} keeps one longer.
 */
public final class Payload {
    private final byte[] bytes;
    private final long bits;
    private final long sideBits;
    private final int elements;

    /**
     * A payload of {@code bits} bits held in {@code bytes}, which must be exactly {@code ceil(bits / 8)} long, all of
     * them value bits.
     */
    public Payload(byte[] bytes, long bits, int elements) {
        this(bytes, bits, 0, elements);
    }

    /**
     * A payload of {@code bits} bits held in {@code bytes}, which must be exactly {@code ceil(bits / 8)} long, of
     * which {@code sideBits} (in [0, bits]) carry no value's code.
     */
    public Payload(byte[] bytes, long bits, long sideBits, int elements) {
        Objects.requireNonNull(bytes, "bytes");
        if (bits < 0 || bytes.length != byteCount(bits)) {
            throw new IllegalArgumentException("a payload of " + bits + " bits needs " + byteCount(bits)
                    + " bytes, found " + bytes.length);
        }
        if (sideBits < 0 || sideBits > bits) {
            throw new IllegalArgumentException("sideBits must be in [0, " + bits + "], found " + sideBits);
        }
        if (elements < 0) {
            throw new IllegalArgumentException("elements must not be negative, found " + elements);
        }
        this.bytes = bytes;
        this.bits = bits;
        this.sideBits = sideBits;
        this.elements = elements;
    }

    /** The number of bytes that hold {@code bits} bits: {@code ceil(bits / 8)}. */
    public static int byteCount(long bits) {
        return Math.toIntExact((bits + 7) >>> 3);
    }

    /** The bytes on the wire (the array itself). */
    public byte[] bytes() {
        return bytes;
    }

    /** The exact number of meaningful bits. */
    public long bits() {
        return bits;
    }

    /** The bits that carry no value's code: headers, scales, norms, maps, indices, counts. */
    public long sideBits() {
        return sideBits;
    }

    /** The bits of the values' own codes: {@code bits() − sideBits()}. */
    public long valueBits() {
        return bits - sideBits;
    }

    /** How many gradient values this payload encodes. */
    public int elements() {
        return elements;
    }

    /** An independent copy. */
    public Payload copy() {
        return new Payload(Arrays.copyOf(bytes, bytes.length), bits, sideBits, elements);
    }

    @Override
    public String toString() {
        return "Payload(" + bits + " bits (" + sideBits + " side), " + elements + " elements)";
    }
}
