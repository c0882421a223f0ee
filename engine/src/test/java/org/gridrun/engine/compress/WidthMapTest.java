package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class WidthMapTest {
    /** A Markov chain of symbols: stays with probability {@code stay}, else draws from {@code p}. */
    private static byte[] chain(int n, double stay, double[] p, long seed) {
        Random rng = new Random(seed);
        byte[] s = new byte[n];
        int previous = 0;
        for (int i = 0; i < n; i++) {
            if (rng.nextDouble() >= stay) {
                double u = rng.nextDouble();
                previous = 0;
                while (previous < 3 && u >= p[previous]) {
                    u -= p[previous];
                    previous++;
                }
            }
            s[i] = (byte) previous;
        }
        return s;
    }

    /** Writes and reads back {@code symbols[from … from + n)} behind a 5-bit prefix; returns the map's bits. */
    private static long roundTrip(byte[] symbols, int from, int n) {
        WidthMap map = new WidthMap();
        long bits = map.encode(symbols, from, n);
        byte[] bytes = new byte[Payload.byteCount(bits + 5)];
        BitPacker packer = new BitPacker().reset(bytes, 0);
        packer.write(0b10110, 5);
        map.write(packer, symbols, from);
        assertEquals(5 + bits, packer.position(), "encode says what write takes");
        packer.flush();
        BitReader reader = new BitReader().reset(bytes, 0);
        assertEquals(0b10110, reader.read(5));
        byte[] back = new byte[symbols.length];
        new WidthMap().read(reader, back, from, n);
        assertEquals(5 + bits, reader.position(), "the decoder stops where the encoder did");
        assertArrayEquals(java.util.Arrays.copyOfRange(symbols, from, from + n),
                java.util.Arrays.copyOfRange(back, from, from + n));
        return bits;
    }

    /** The order-1 empirical entropy of the symbols, in bits: the coder's lower bound. */
    private static double entropy(byte[] s) {
        double[][] counts = new double[4][4];
        int previous = 0;
        for (byte b : s) {
            counts[previous][b]++;
            previous = b;
        }
        double bits = 0;
        for (double[] row : counts) {
            double total = row[0] + row[1] + row[2] + row[3];
            for (double k : row) {
                bits += k == 0 ? 0 : -k * Math.log(k / total) / Math.log(2);
            }
        }
        return bits;
    }

    @Test
    void correlatedMapsCostTheirOrderOneEntropyAndRoundTrip() {
        double[] shares = {0.6, 0.25, 0.13, 0.02};
        for (double stay : new double[] {0, 0.5, 0.9}) {
            byte[] s = chain(100_000, stay, shares, 3);
            long bits = roundTrip(s, 0, s.length);
            double bound = entropy(s);
            // each of its 13 chunks adds its byte count and its coder's last state, and starts its context afresh
            assertTrue(bits >= bound && bits <= bound * 1.01 + WidthMap.CODED_HEADER + 64 * WidthMap.chunks(s.length),
                    "stay " + stay + ": " + bits + " bits for entropy " + bound);
        }
    }

    @Test
    void shortOrUniformMapsGoPlainAndNeverCostMoreThanTwoBitsAValue() {
        Random rng = new Random(1);
        for (int n : new int[] {0, 1, 2, 7, 50, 1000}) {
            byte[] s = new byte[n + 3];
            for (int i = 0; i < s.length; i++) {
                s[i] = (byte) rng.nextInt(4);
            }
            long bits = roundTrip(s, 3 - Math.min(3, n), n);
            assertTrue(bits <= 2L * n + 1, n + " symbols took " + bits);
        }
    }

    @Test
    void oneSymbolAndRareSymbolsRoundTrip() {
        byte[] zeros = new byte[5000];
        assertTrue(roundTrip(zeros, 0, zeros.length) < WidthMap.CODED_HEADER + 40, "a constant map is nearly free");
        byte[] rare = chain(20_000, 0, new double[] {0.9998, 0.0001, 0.00005, 0.00005}, 5);
        rare[19_999] = 3;
        rare[0] = 2;
        roundTrip(rare, 0, rare.length);
    }

    @Test
    void chunksAreCodedOnTheirOwnAndAWrongByteCountIsRefused() {
        byte[] s = chain(3 * WidthMap.CHUNK + 5, 0.8, new double[] {0.6, 0.25, 0.13, 0.02}, 7);
        WidthMap map = new WidthMap();
        long bits = map.encode(s, 0, s.length);
        byte[] bytes = new byte[Payload.byteCount(bits)];
        BitPacker packer = new BitPacker().reset(bytes, 0);
        map.write(packer, s, 0);
        packer.flush();
        byte[] back = new byte[s.length];
        new WidthMap().read(new BitReader().reset(bytes, 0), back, 0, s.length);
        assertArrayEquals(s, back);
        // chunk 0's byte count is the 16 bits after the mode bit and the frequencies: one more is refused
        int count = new BitReader().reset(bytes, WidthMap.CODED_HEADER).read(WidthMap.LENGTH_BITS);
        byte[] wrong = new byte[bytes.length];
        BitReader in = new BitReader().reset(bytes, 0);
        BitPacker out = new BitPacker().reset(wrong, 0);
        for (long bit = 0; bit < bits; ) {
            int width = bit == WidthMap.CODED_HEADER ? WidthMap.LENGTH_BITS
                    : (int) Math.min(bit < WidthMap.CODED_HEADER ? Math.min(8, WidthMap.CODED_HEADER - bit) : 8,
                            bits - bit);
            int value = in.read(width);
            out.write(bit == WidthMap.CODED_HEADER ? value + 1 : value, width);
            bit += width;
        }
        out.flush();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WidthMap().read(new BitReader().reset(wrong, 0), new byte[s.length], 0, s.length));
        assertEquals("width map chunk 0 says " + (count + 1) + " bytes, its coder read " + count, e.getMessage());
    }

    @Test
    void aFrequencyTableAboveItsTotalIsRefused() {
        byte[] bytes = new byte[64];
        BitPacker packer = new BitPacker().reset(bytes, 0);
        packer.write(1, 1);
        for (int k = 0; k < 12; k++) {
            packer.write(4000, WidthMap.FREQUENCY_BITS);
        }
        packer.flush();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WidthMap().read(new BitReader().reset(bytes, 0), new byte[10], 0, 10));
        assertEquals("width map frequencies of context 0 sum to 12000, more than 4096", e.getMessage());
    }
}
