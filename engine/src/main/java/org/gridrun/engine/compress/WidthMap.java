package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * A tensor's map of four-symbol codes (JointSQ's widths 0, 2, 4, 8 as 0 … 3), entropy-coded with an order-1 range
 * ANS coder, or sent plainly when that is shorter.
 *
 * <p>Neighbouring values of a layer's gradient have similar magnitudes (a convolution's 3×3 taps, a dense layer's
 * row), so the width of a value says much about the next: on real gradients the map's entropy given the previous
 * width is about half its plain entropy (0.6–0.7 bits against 1.3, against 2 bits sent plainly). The coder models
 * each symbol by the previous one (0 before the first of each chunk).
 *
 * <p>The map is cut into chunks of {@value #CHUNK} symbols, each coded on its own (its context starts at 0, its coder
 * at its initial state), so that a device codes and decodes a large tensor's chunks at once instead of one chain of
 * millions of dependent steps; the chunks share the frequency table, and all but the last send their byte count.
 * This costs about 48 bits a chunk, 0.006 bits a symbol.
 *
 * <p>Format, in the bit stream of the payload (least significant bit first):
 * <ul>
 *   <li>one bit: 0 plain, 1 coded;</li>
 *   <li>plain: the {@code n} symbols, 2 bits each;</li>
 *   <li>coded: for each context {@code c = 0 … 3}, the frequencies {@code f[c][0 … 2]} in {@value #FREQUENCY_BITS}
 *       bits each ({@code f[c][3] = 2^12 − their sum}); the byte count of every chunk but the last, in
 *       {@value #LENGTH_BITS} bits each; then each chunk's bytes, 8 bits each, as many as its decoder consumes: its
 *       final state's four bytes (little-endian), then the bytes its encoder shifted out, last first.
 *   </li>
 * </ul>
 * The coder (Duda's rANS with byte renormalisation: state in {@code [2^23, 2^31)}, frequencies summing to
 * {@code 2^12}) encodes the symbols last to first, so that they decode first to last. A context's frequencies are its
 * symbol counts scaled to {@code 2^12}, every symbol that occurs getting at least 1; the encoder picks the mode with
 * fewer bits, so the map never costs more than {@code 2n + 1} bits.
 *
 * <p>One instance is reused across tensors and payloads; it allocates only when a tensor is larger than any before.
 */
final class WidthMap {
    static final int PRECISION = 12;
    static final int TOTAL = 1 << PRECISION;
    static final int FREQUENCY_BITS = PRECISION + 1;
    /** The bits of a coded map besides its bytes: the mode bit and the frequency table. */
    static final int CODED_HEADER = 1 + 4 * 3 * FREQUENCY_BITS;
    /** The symbols a chunk holds, each chunk coded on its own. */
    static final int CHUNK = 8192;
    /** The bits of a chunk's byte count (at most {@code CHUNK·12/8 + 4} bytes). */
    static final int LENGTH_BITS = 16;
    private static final int LOW = 1 << 23;

    /** Per context {@code c}: frequencies at {@code [4c … 4c + 3]}, cumulative starts at {@code [5c … 5c + 4]}. */
    private final int[] frequency = new int[16];
    private final int[] start = new int[20];
    /** Per context and symbol: {@code floor(x / f) = (x · reciprocal) >>> shift} for every state {@code x < 2^31}. */
    private final long[] reciprocal = new long[16];
    private final int[] shift = new int[16];
    private final int[] counts = new int[16];
    private byte[] bytes = new byte[0];
    /** Each chunk's byte count; its bytes lie from {@link #chunkBytes}{@code (c)} of {@link #bytes}. */
    private int[] byteCounts = new int[0];
    private boolean coded;
    private int n;

    /**
     * Encodes {@code symbols[from … from + n)} (each 0 … 3) and returns the bits {@link #write} will take; the
     * symbols must not change until then.
     */
    long encode(byte[] symbols, int from, int n) {
        this.n = n;
        Arrays.fill(counts, 0);
        int previous = 0;
        for (int i = 0; i < n; i++) {
            int s = symbols[from + i];
            counts[(i % CHUNK == 0 ? 0 : previous) << 2 | s]++;
            previous = s;
        }
        normalise();
        int chunks = chunks(n);
        if (bytes.length < 2 * n + 8 * chunks) {
            bytes = new byte[2 * n + 8 * chunks];
        }
        if (byteCounts.length < chunks) {
            byteCounts = new int[chunks];
        }
        long codedBits = CODED_HEADER + (long) LENGTH_BITS * (chunks - 1);
        for (int c = 0; c < chunks; c++) {
            int first = c * CHUNK;
            byteCounts[c] = code(symbols, from + first, Math.min(CHUNK, n - first), chunkBytes(c));
            codedBits += 8L * byteCounts[c];
        }
        coded = codedBits < 2L * n + 1;
        return coded ? codedBits : 2L * n + 1;
    }

    /** The chunks of a map of {@code n} symbols: at least one. */
    static int chunks(int n) {
        return Math.max(1, (n + CHUNK - 1) / CHUNK);
    }

    /** Where chunk {@code c}'s coder bytes start in {@link #bytes}: room for two a symbol and eight more. */
    private static int chunkBytes(int c) {
        return 2 * c * CHUNK + 8 * c;
    }

    /** Scales each context's counts to frequencies summing to {@link #TOTAL}; an unused context gets all on 0. */
    private void normalise() {
        for (int c = 0; c < 4; c++) {
            long total = 0;
            for (int s = 0; s < 4; s++) {
                total += counts[c << 2 | s];
            }
            int sum = 0;
            int largest = 0;
            for (int s = 0; s < 4; s++) {
                int k = counts[c << 2 | s];
                int f = total == 0 ? (s == 0 ? TOTAL : 0) : k == 0 ? 0 : (int) Math.max(1, k * (long) TOTAL / total);
                frequency[c << 2 | s] = f;
                sum += f;
                largest = f > frequency[c << 2 | largest] ? s : largest;
            }
            frequency[c << 2 | largest] += TOTAL - sum;
            tables(c);
        }
    }

    /** The cumulative starts and reciprocals of context {@code c}, from its frequencies. */
    private void tables(int c) {
        start[5 * c] = 0;
        for (int s = 0; s < 4; s++) {
            int f = frequency[c << 2 | s];
            start[5 * c + s + 1] = start[5 * c + s] + f;
            if (f > 0) {
                // Exact division of any x < 2^31 by f: shift = 31 + ceil(log2 f), reciprocal = ceil(2^shift / f).
                int bits = 32 - Integer.numberOfLeadingZeros(f - 1);
                shift[c << 2 | s] = 31 + bits;
                reciprocal[c << 2 | s] = ((1L << (31 + bits)) + f - 1) / f;
            }
        }
    }

    /**
     * Runs the coder over the chunk {@code symbols[from … from + n)}, last to first, into {@link #bytes} from
     * {@code at}; returns how many it wrote.
     */
    private int code(byte[] symbols, int from, int n, int at) {
        byte[] out = bytes;
        int k = at;
        long x = LOW;
        for (int i = from + n - 1; i >= from; i--) {
            int s = symbols[i];
            int slot = (i > from ? symbols[i - 1] : 0) << 2 | s;
            int f = frequency[slot];
            long limit = (long) f << (31 - PRECISION);
            while (x >= limit) {
                out[k++] = (byte) x;
                x >>>= 8;
            }
            long q = x * reciprocal[slot] >>> shift[slot];
            x = (q << PRECISION) + (x - q * f) + start[5 * (slot >>> 2) + s];
        }
        out[k++] = (byte) (x >>> 24);
        out[k++] = (byte) (x >>> 16);
        out[k++] = (byte) (x >>> 8);
        out[k++] = (byte) x;
        return k - at;
    }

    /** Writes what the last {@link #encode} prepared. */
    void write(BitPacker packer, byte[] symbols, int from) {
        if (!coded) {
            packer.write(0, 1);
            for (int i = from; i < from + n; i++) {
                packer.write(symbols[i], 2);
            }
            return;
        }
        packer.write(1, 1);
        for (int c = 0; c < 4; c++) {
            for (int s = 0; s < 3; s++) {
                packer.write(frequency[c << 2 | s], FREQUENCY_BITS);
            }
        }
        int chunks = chunks(n);
        for (int c = 0; c < chunks - 1; c++) {
            packer.write(byteCounts[c], LENGTH_BITS);
        }
        for (int c = 0; c < chunks; c++) {
            for (int k = chunkBytes(c) + byteCounts[c] - 1; k >= chunkBytes(c); k--) {
                packer.write(bytes[k], 8);
            }
        }
    }

    /**
     * Reads a map of {@code n} symbols into {@code symbols[from …]}.
     *
     * @throws IllegalArgumentException if the frequency table is not one an encoder writes, or a chunk's bytes are not
     *                                  as many as it says
     */
    void read(BitReader reader, byte[] symbols, int from, int n) {
        if (reader.read(1) == 0) {
            for (int i = from; i < from + n; i++) {
                symbols[i] = (byte) reader.read(2);
            }
            return;
        }
        for (int c = 0; c < 4; c++) {
            int sum = 0;
            for (int s = 0; s < 3; s++) {
                frequency[c << 2 | s] = reader.read(FREQUENCY_BITS);
                sum += frequency[c << 2 | s];
            }
            if (sum > TOTAL) {
                throw new IllegalArgumentException("width map frequencies of context " + c + " sum to " + sum
                        + ", more than " + TOTAL);
            }
            frequency[c << 2 | 3] = TOTAL - sum;
            tables(c);
        }
        int chunks = chunks(n);
        if (byteCounts.length < chunks) {
            byteCounts = new int[chunks];
        }
        for (int c = 0; c < chunks - 1; c++) {
            byteCounts[c] = reader.read(LENGTH_BITS);
        }
        for (int c = 0; c < chunks; c++) {
            int first = c * CHUNK;
            long start = reader.position();
            readChunk(reader, symbols, from + first, Math.min(CHUNK, n - first));
            long read = (reader.position() - start) / 8;
            if (c < chunks - 1 && read != byteCounts[c]) {
                throw new IllegalArgumentException("width map chunk " + c + " says " + byteCounts[c]
                        + " bytes, its coder read " + read);
            }
        }
    }

    /** Decodes one chunk of {@code n} symbols into {@code symbols[from …]}, its context starting at 0. */
    private void readChunk(BitReader reader, byte[] symbols, int from, int n) {
        long x = reader.read(8) | reader.read(8) << 8 | reader.read(8) << 16 | (long) reader.read(8) << 24;
        int previous = 0;
        for (int i = from; i < from + n; i++) {
            int slot = (int) x & (TOTAL - 1);
            int base = 5 * previous;
            int s = (slot >= start[base + 1] ? 1 : 0) + (slot >= start[base + 2] ? 1 : 0)
                    + (slot >= start[base + 3] ? 1 : 0);
            x = frequency[previous << 2 | s] * (x >>> PRECISION) + slot - start[base + s];
            while (x < LOW) {
                x = x << 8 | reader.read(8);
            }
            symbols[i] = (byte) s;
            previous = s;
        }
    }
}
