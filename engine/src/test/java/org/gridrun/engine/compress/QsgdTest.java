package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class QsgdTest {
    private static Compressor qsgd(int bits, int bucket, long seed) {
        return Compressors.create("qsgd", Map.of("bits", (long) bits, "bucket_size", (long) bucket), seed);
    }

    private static double norm(float[] g, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += (double) g[i] * g[i];
        }
        return Math.sqrt(sum);
    }

    @Test
    void everyValueLandsWithinOneLevelSpacingTimesItsBucketNorm() {
        float[] g = TestGradients.gaussian(1000, 1);
        int bucket = 128; // 7 full buckets and a last one of 104
        for (int bits = 1; bits <= 8; bits++) {
            float[] out = TestGradients.roundTrip(qsgd(bits, bucket, 5), g);
            double spacing = 2.0 / ((1 << bits) - 1);
            for (int i = 0; i < g.length; i++) {
                int b = i / bucket;
                double bound = norm(g, b * bucket, Math.min(g.length, (b + 1) * bucket)) * spacing;
                assertTrue(Math.abs(out[i] - g[i]) <= bound * (1 + 1e-5),
                        "bits " + bits + ", value " + i + ": " + g[i] + " decoded as " + out[i]);
            }
        }
    }

    @Test
    void payloadHoldsExactlyTheReportedBits() {
        int[] sizes = {1, 7, 100, 1000, 8193};
        int[] buckets = {1, 3, 64, 8192};
        for (int n : sizes) {
            float[] g = TestGradients.gaussian(n, n);
            for (int bucket : buckets) {
                for (int bits = 1; bits <= 8; bits++) {
                    Payload p = qsgd(bits, bucket, 1).encode(g, 0, n);
                    long bucketCount = (n + bucket - 1) / bucket;
                    assertEquals(32 * bucketCount + (long) bits * n, p.bits(), n + "/" + bucket + "/" + bits);
                    assertEquals((p.bits() + 7) / 8, p.bytes().length);
                    assertEquals(n, p.elements());
                }
            }
        }
    }

    @Test
    void decodedValuesAreUnbiased() {
        // 64 values in 4 buckets; R independent draws. Each decoded value has variance at most
        // (norm·s)²/4 (a Bernoulli choice between two levels s apart), so the mean of R draws lies within
        // 5σ/√R = 5·norm·s/(2√R) of the input unless the rounding is biased.
        int n = 64;
        int bucket = 16;
        int draws = 4000;
        float[] g = TestGradients.gaussian(n, 3);
        g[5] = 0.0f;
        for (int bits : new int[] {1, 2, 3}) {
            Compressor c = qsgd(bits, bucket, 17);
            double[] mean = new double[n];
            float[] out = new float[n];
            for (int r = 0; r < draws; r++) {
                c.decode(c.encode(g, 0, n), out, 0);
                for (int i = 0; i < n; i++) {
                    mean[i] += out[i] / (double) draws;
                }
            }
            double spacing = 2.0 / ((1 << bits) - 1);
            for (int i = 0; i < n; i++) {
                double sigma = norm(g, i / bucket * bucket, i / bucket * bucket + bucket) * spacing / 2;
                double tolerance = 5 * sigma / Math.sqrt(draws);
                assertEquals(g[i], mean[i], tolerance, "bits " + bits + ", value " + i);
            }
        }
    }

    @Test
    void nearestRoundingWouldFailTheUnbiasednessTolerance() {
        // The oracle's sensitivity: with 2 bits (levels ±1/3, ±1), r = 0.1 rounds to the nearest level 1/3, a
        // bias of 0.233·norm, far beyond the 5σ/√R tolerance of 0.026·norm for R = 4000.
        double spacing = 2.0 / 3;
        double tolerance = 5 * spacing / 2 / Math.sqrt(4000);
        assertTrue(Math.abs(1.0 / 3 - 0.1) > 5 * tolerance);
    }

    @Test
    void zeroBucketDecodesToZeros() {
        float[] g = TestGradients.gaussian(48, 4);
        Arrays.fill(g, 16, 32, 0f);
        float[] out = TestGradients.roundTrip(qsgd(3, 16, 2), g);
        for (int i = 16; i < 32; i++) {
            assertEquals(0f, out[i], "value " + i);
        }
        assertFalse(out[0] == 0f && out[1] == 0f, "other buckets are not zero");
    }

    @Test
    void wireFormatIsNormsThenPackedIndices() {
        // Buckets of one value: r = ±1 exactly, so the level index is deterministic (top or 0).
        float[] g = {2f, -3f, 5f};
        Payload p = qsgd(3, 1, 9).encode(g, 0, 3);
        assertEquals(3 * 32 + 3 * 3, p.bits());
        byte[] b = p.bytes();
        assertEquals(14, b.length);
        assertEquals(2f, LittleEndian.getFloat(b, 0));
        assertEquals(3f, LittleEndian.getFloat(b, 4));
        assertEquals(5f, LittleEndian.getFloat(b, 8));
        int codes = 7 | 0 << 3 | 7 << 6; // indices 7, 0, 7, least significant bit first
        assertEquals(codes & 0xFF, b[12] & 0xFF);
        assertEquals(codes >>> 8, b[13] & 0xFF);
        float[] out = new float[3];
        Compressors.create("qsgd", Map.of("bits", 3L, "bucket_size", 1L), 0).decode(p, out, 0);
        assertArrayEquals(g, out);
    }

    @Test
    void aSeedAndStreamDetermineThePayload() {
        float[] g = TestGradients.gaussian(500, 8);
        Compressor a = qsgd(4, 64, 21).copy(3);
        Compressor b = qsgd(4, 64, 21).copy(3);
        byte[] first = a.encode(g, 0, g.length).copy().bytes();
        assertArrayEquals(first, b.encode(g, 0, g.length).bytes());
        assertFalse(Arrays.equals(first, a.copy(4).encode(g, 0, g.length).bytes()), "another stream differs");
        assertFalse(Arrays.equals(first, a.encode(g, 0, g.length).bytes()), "the next draw differs");
        a.reset();
        assertArrayEquals(first, a.encode(g, 0, g.length).bytes(), "reset restarts the stream");
    }

    @Test
    void aRestoredCopyEncodesWhatTheSavedOneWouldHave() throws IOException {
        float[] g = TestGradients.gaussian(301, 9);
        Compressor saved = qsgd(2, 64, 21).copy(5);
        saved.encode(g, 0, g.length);
        saved.encode(g, 0, g.length);
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        saved.saveState(new DataOutputStream(state));
        assertEquals(24, state.size(), "seed, stream and counter");
        byte[] third = saved.encode(g, 0, g.length).copy().bytes();

        Compressor restored = qsgd(2, 64, 21).copy(5);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        assertArrayEquals(third, restored.encode(g, 0, g.length).bytes());
        Compressor otherStream = qsgd(2, 64, 21).copy(6);
        assertThrows(IllegalStateException.class, () -> otherStream.restoreState(
                new DataInputStream(new ByteArrayInputStream(state.toByteArray()))));
    }

    @Test
    void perLayerBucketsRestartAtEachTensorOfTheBoundLayout() {
        // Tensors of 3 and 5 values, buckets of 4: per layer [0,3) [3,7) [7,8); network-wide [0,4) [4,8).
        float[] g = TestGradients.gaussian(8, 4);
        TensorLayout layout = TensorLayout.of(java.util.List.of("w", "b"), java.util.List.of(new int[] {3},
                new int[] {5}));
        Compressor layered = Compressors.create("qsgd", Map.of("bits", 2L, "bucket_size", 4L, "per_layer", true,
                "ignore_small_buckets", false), 1).copy(0);
        layered.bind(layout);
        Payload p = layered.encode(g, 0, 8);
        assertEquals(3 * 32 + 2 * 8, p.bits());
        int[] starts = {0, 3, 7, 8};
        for (int b = 0; b < 3; b++) {
            double sum = 0;
            for (int i = starts[b]; i < starts[b + 1]; i++) {
                sum += (double) g[i] * g[i];
            }
            assertEquals((float) Math.sqrt(sum), LittleEndian.getFloat(p.bytes(), 4 * b), "norm of bucket " + b);
        }
        float[] out = new float[8];
        layered.decode(p, out, 0);
        for (int i = 0; i < 8; i++) {
            assertTrue(Math.abs(out[i]) <= LittleEndian.getFloat(p.bytes(), 4 * (i < 3 ? 0 : i < 7 ? 1 : 2)) * 1.0001,
                    "value " + i + " scaled by its own bucket");
        }
        Compressor flat = qsgd(2, 4, 1).copy(0);
        flat.bind(layout);
        assertEquals(2 * 32 + 2 * 8, flat.encode(g, 0, 8).bits(), "network-wide by default");
        assertEquals(Map.of("bits", 2L, "bucket_size", 4L, "per_layer", true, "ignore_small_buckets", false),
                layered.config());
    }

    @Test
    void encodeReadsOnlyItsRange() {
        float[] g = TestGradients.gaussian(30, 6);
        float[] padded = new float[40];
        System.arraycopy(g, 0, padded, 5, 30);
        padded[0] = 1e9f;
        padded[39] = 1e9f;
        byte[] plain = qsgd(2, 8, 1).encode(g, 0, 30).bytes();
        assertArrayEquals(plain, qsgd(2, 8, 1).encode(padded, 5, 30).bytes());
    }

    @Test
    void badParametersFailAtConstruction() {
        assertEquals("bits must be in [1, 8], found 0", assertThrows(ConfigException.class,
                () -> Compressors.create("qsgd", Map.of("bits", 0L), 1)).getMessage());
        assertEquals("bits must be in [1, 8], found 9", assertThrows(ConfigException.class,
                () -> Compressors.create("qsgd", Map.of("bits", 9L), 1)).getMessage());
        assertEquals("bucket_size must be positive, found 0", assertThrows(ConfigException.class,
                () -> Compressors.create("qsgd", Map.of("bucket_size", 0L), 1)).getMessage());
        assertEquals("bits must be an integer, found 'four'", assertThrows(ConfigException.class,
                () -> Compressors.create("qsgd", Map.of("bits", "four"), 1)).getMessage());
        assertEquals("unknown qsgd parameter 'bitz'; known: bits, bucket_size, per_layer, "
                + "ignore_small_buckets", assertThrows(ConfigException.class,
                () -> Compressors.create("qsgd", Map.of("bitz", 2L), 1)).getMessage());
    }

    @Test
    void configAndAggregationAreReported() {
        Compressor c = qsgd(2, 512, 1);
        assertEquals("qsgd", c.name());
        assertEquals(Map.of("bits", 2L, "bucket_size", 512L, "per_layer", false, "ignore_small_buckets", false),
                c.config());
        assertEquals(Aggregation.ALL_GATHER, c.aggregation());
        assertEquals(Map.of("bits", 4L, "bucket_size", 8192L, "per_layer", false, "ignore_small_buckets", false),
                Compressors.create("qsgd", Map.of(), 1).config());
    }
}
