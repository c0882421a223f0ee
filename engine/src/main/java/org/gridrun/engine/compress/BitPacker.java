package org.gridrun.engine.compress;

/**
 * Writes codes of 1 to 32 bits each into a byte array, contiguously, least significant bit first.
 *
 * <p>Bit {@code i} of the stream is bit {@code i % 8} of byte {@code i / 8}; a code's low bit comes first. Pending
 * bits collect in a 64-bit accumulator that is stored four bytes at a time, so writing a code is a shift, an or and,
 * every 32 bits, one store; 2-, 4- and 8-bit codes from a whole byte go sixteen at a time with the Vector API
 * ({@link VectorPacking}) where it runs. Bits before the start position are preserved; call {@link #flush()} after the last code,
 * which zeroes the unused high bits of the last byte. One packer is reused across payloads through
 * {@link #reset(byte[], long)}; it allocates nothing.
 */
public final class BitPacker {
    private byte[] out;
    private int bytePos;
    private long acc;
    private int pending;

    /** Starts writing into {@code out} at bit {@code bitOffset}; returns this packer. */
    public BitPacker reset(byte[] out, long bitOffset) {
        if (bitOffset < 0 || bitOffset > 8L * out.length) {
            throw new IllegalArgumentException("bit offset " + bitOffset + " outside " + out.length + " bytes");
        }
        this.out = out;
        this.bytePos = (int) (bitOffset >>> 3);
        this.pending = (int) (bitOffset & 7);
        this.acc = pending == 0 ? 0 : out[bytePos] & ((1 << pending) - 1);
        return this;
    }

    /** Appends the low {@code width} bits of {@code code}; {@code width} is in [1, 32]. */
    public void write(int code, int width) {
        acc |= (code & ((1L << width) - 1)) << pending;
        pending += width;
        if (pending >= 32) {
            storeWord();
        }
    }

    /**
     * Appends the low {@code width} bits of {@code codes[0 … count)}, {@code width} in [1, 32]: what {@code count}
     * calls of {@link #write} do, with the accumulator held in locals for the whole loop.
     */
    public void writeAll(int[] codes, int count, int width) {
        int done = 0;
        if (pending == 0 && Vectors.packs(width)) {
            done = VectorPacking.pack(codes, 0, count, width, out, bytePos);
            bytePos += done * width / 8;
        }
        if (pending == 0 && 32 % width == 0) {
            done += writeWords(codes, done, count, width);
        }
        if (done < count) {
            writeRest(codes, null, width, done, count);
        }
    }

    /**
     * The whole-word path of {@link #writeAll(int[], int, int)}, from a byte boundary with a width that divides 32:
     * each group of {@code 32/width} codes from {@code codes[from]} on becomes one int and one four-byte store, with
     * no test per code. Returns how many codes it wrote (whole groups that fit in the array).
     */
    private int writeWords(int[] codes, int from, int count, int width) {
        int perWord = 32 / width;
        int mask = width == 32 ? -1 : (1 << width) - 1;
        int groups = Math.min((count - from) / perWord, (out.length - bytePos) / 4);
        byte[] o = out;
        int p = bytePos;
        for (int g = 0, i = from; g < groups; g++, p += 4) {
            int word = 0;
            for (int k = 0; k < 32; k += width, i++) {
                word |= (codes[i] & mask) << k;
            }
            LittleEndian.putInt(o, p, word);
        }
        bytePos = p;
        return groups * perWord;
    }

    /** Appends the low {@code widths[i]} bits of {@code codes[i]} for {@code i} in {@code [0, count)}. */
    public void writeAll(int[] codes, int[] widths, int count) {
        writeRest(codes, widths, 0, 0, count);
    }

    /**
     * The general loop of both {@code writeAll}s from code {@code from} on: width {@code widths[i]}, or {@code width}
     * for every code when {@code widths} is null.
     */
    private void writeRest(int[] codes, int[] widths, int width, int from, int count) {
        long a = acc;
        int bits = pending;
        int p = bytePos;
        byte[] o = out;
        for (int i = from; i < count; i++) {
            int w = widths == null ? width : widths[i];
            a |= (codes[i] & ((1L << w) - 1)) << bits;
            bits += w;
            if (bits >= 32) {
                LittleEndian.putInt(o, p, (int) a);
                p += 4;
                a >>>= 32;
                bits -= 32;
            }
        }
        acc = a;
        pending = bits;
        bytePos = p;
    }

    /**
     * Stores the low 32 pending bits. Plain byte stores, not a {@code VarHandle}: inside a large caller the JIT may
     * stop inlining the handle's call chain, and an out-of-line handle call costs more than the whole write.
     */
    private void storeWord() {
        int word = (int) acc;
        byte[] o = out;
        int p = bytePos;
        if (p + 4 <= o.length) {
            o[p] = (byte) word;
            o[p + 1] = (byte) (word >>> 8);
            o[p + 2] = (byte) (word >>> 16);
            o[p + 3] = (byte) (word >>> 24);
        } else {
            storeBytes(4);
        }
        bytePos = p + 4;
        acc >>>= 32;
        pending -= 32;
    }

    /** Appends the 32 bits of {@code value}'s IEEE 754 representation. */
    public void writeFloat(float value) {
        write(Float.floatToRawIntBits(value), 32);
    }

    /** Stores the bits still pending; the unused high bits of the last byte become zero. */
    public void flush() {
        storeBytes((pending + 7) >>> 3);
        bytePos += pending >>> 3;
        acc >>>= pending & ~7;
        pending &= 7;
    }

    /** The bit position of the next code. */
    public long position() {
        return 8L * bytePos + pending;
    }

    private void storeBytes(int count) {
        long bits = acc;
        for (int i = 0; i < count; i++) {
            out[bytePos + i] = (byte) bits;
            bits >>>= 8;
        }
    }
}
