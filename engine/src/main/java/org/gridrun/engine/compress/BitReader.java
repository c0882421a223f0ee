package org.gridrun.engine.compress;

/**
 * Reads codes of 1 to 32 bits each from a byte array written by {@link BitPacker}, least significant bit first.
 *
 * <p>Bytes are loaded four at a time (plain byte loads, which inline anywhere, unlike a {@code VarHandle}) into a 64-bit accumulator (one at a time near the end of the array), so
 * reading a code is a mask and a shift. One reader is reused across payloads through {@link #reset(byte[], long)};
 * it allocates nothing. Reading past the end of the array fails with an {@link IndexOutOfBoundsException}.
 */
public final class BitReader {
    private byte[] in;
    private int bytePos;
    private long acc;
    private int available;

    /** Starts reading {@code in} at bit {@code bitOffset}; returns this reader. */
    public BitReader reset(byte[] in, long bitOffset) {
        if (bitOffset < 0 || bitOffset > 8L * in.length) {
            throw new IllegalArgumentException("bit offset " + bitOffset + " outside " + in.length + " bytes");
        }
        this.in = in;
        this.bytePos = (int) (bitOffset >>> 3);
        this.acc = 0;
        this.available = 0;
        int skip = (int) (bitOffset & 7);
        if (skip > 0) {
            acc = (in[bytePos++] & 0xFF) >>> skip;
            available = 8 - skip;
        }
        return this;
    }

    /** The next {@code width}-bit code, {@code width} in [1, 32], as a non-negative int (or any int for 32). */
    public int read(int width) {
        if (available < width) {
            refill();
            if (available < width) {
                throw new IndexOutOfBoundsException("read past the end of a " + in.length + "-byte payload");
            }
        }
        int code = (int) (acc & ((1L << width) - 1));
        acc >>>= width;
        available -= width;
        return code;
    }

    /**
     * Reads the next {@code count} codes of {@code width} bits, {@code width} in [1, 32], into {@code codes[0 …
     * count)}: what {@code count} calls of {@link #read} return, with the accumulator held in locals while four whole
     * bytes remain to load.
     */
    public void readAll(int[] codes, int count, int width) {
        int done = 0;
        if (available == 0 && Vectors.packs(width)) {
            done = VectorPacking.unpack(in, bytePos, codes, 0, count, width);
            bytePos += done * width / 8;
        }
        if (available == 0 && 32 % width == 0) {
            done += readWords(codes, done, count, width);
        }
        if (done < count) {
            readRest(codes, done, count, width);
        }
    }

    /**
     * The whole-word path of {@link #readAll}, from a byte boundary with a width that divides 32: one four-byte load
     * per {@code 32/width} codes, each a shift and a mask, with no test per code, into {@code codes[from …]}. Returns
     * how many codes it read.
     */
    private int readWords(int[] codes, int from, int count, int width) {
        int perWord = 32 / width;
        int mask = width == 32 ? -1 : (1 << width) - 1;
        int groups = Math.min((count - from) / perWord, (in.length - bytePos) / 4);
        byte[] b = in;
        int p = bytePos;
        for (int g = 0, i = from; g < groups; g++, p += 4) {
            int word = LittleEndian.getInt(b, p);
            for (int k = 0; k < 32; k += width, i++) {
                codes[i] = word >>> k & mask;
            }
        }
        bytePos = p;
        return groups * perWord;
    }

    /** The general loop of {@link #readAll} from code {@code from} on. */
    private void readRest(int[] codes, int from, int count, int width) {
        long mask = (1L << width) - 1;
        long a = acc;
        int bits = available;
        int p = bytePos;
        byte[] b = in;
        int last = b.length - 4;
        int i = from;
        for (; i < count; i++) {
            if (bits < width) {
                if (p > last) {
                    break;
                }
                a |= (LittleEndian.getInt(b, p) & 0xFFFFFFFFL) << bits;
                p += 4;
                bits += 32;
            }
            codes[i] = (int) (a & mask);
            a >>>= width;
            bits -= width;
        }
        acc = a;
        available = bits;
        bytePos = p;
        for (; i < count; i++) {
            codes[i] = read(width);
        }
    }

    /**
     * The next {@code width} bits, {@code width} in [1, 32], without consuming them; bits past the end of the array
     * read as zeros, so a caller may look further ahead than the last code reaches.
     */
    public int peek(int width) {
        if (available < width) {
            refill();
        }
        return (int) (acc & ((1L << width) - 1));
    }

    /** Consumes {@code width} bits, {@code width} in [1, 32], as {@link #read} would. */
    public void skip(int width) {
        read(width);
    }

    /** The bit position of the next code. */
    public long position() {
        return 8L * bytePos - available;
    }

    /** The next 32 bits as an IEEE 754 float. */
    public float readFloat() {
        return Float.intBitsToFloat(read(32));
    }

    private void refill() {
        if (bytePos + 4 <= in.length) {
            byte[] b = in;
            int p = bytePos;
            long word = b[p] & 0xFFL | (b[p + 1] & 0xFFL) << 8 | (b[p + 2] & 0xFFL) << 16 | (b[p + 3] & 0xFFL) << 24;
            acc |= word << available;
            bytePos += 4;
            available += 32;
            return;
        }
        while (available <= 56 && bytePos < in.length) {
            acc |= (in[bytePos++] & 0xFFL) << available;
            available += 8;
        }
    }
}
