package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LevelQuantizerTest {
    /** A method whose levels change between steps, as learned-level methods' do. */
    private static final class Learned extends LevelQuantizer {
        Learned(long seed, long stream) {
            super(3, 32, false, Norm.L2, uniformLevels(8), true, seed, stream);
        }

        void learn(double[] levels) {
            setLevels(levels);
        }

        @Override
        public String name() {
            return "learned";
        }

        @Override
        public Map<String, Object> config() {
            return Map.of();
        }

        @Override
        public Compressor copy(long stream) {
            return new Learned(seed, stream);
        }
    }

    private static final TensorLayout TWO_TENSORS = TensorLayout.of(List.of("w", "b"),
            List.of(new int[] {10, 7}, new int[] {5}));

    private static float norm(float[] g, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += (double) g[i] * g[i];
        }
        return (float) Math.sqrt(sum);
    }

    @Test
    void perLayerBucketsRestartAtEveryTensor() {
        // 70 + 5 values, buckets of 32: per layer [0,32) [32,64) [64,70) [70,75), four norms; flat three.
        float[] g = TestGradients.gaussian(75, 2);
        Compressor layered = Compressors.create("qinf", Map.of("bits", 2L, "bucket_size", 32L, "per_layer", true), 1)
                .copy(0);
        layered.bind(TWO_TENSORS);
        Payload p = layered.encode(g, 0, 75);
        assertEquals(4 * 32 + 2 * 75, p.bits());
        float[] expected = new float[4];
        int[] starts = {0, 32, 64, 70, 75};
        for (int b = 0; b < 4; b++) {
            for (int i = starts[b]; i < starts[b + 1]; i++) {
                expected[b] = Math.max(expected[b], Math.abs(g[i]));
            }
            assertEquals(expected[b], LittleEndian.getFloat(p.bytes(), 4 * b), "norm of bucket " + b);
        }
        float[] out = new float[75];
        layered.decode(p, out, 0);
        LevelOracle tail = new LevelOracle(LevelQuantizer.uniformLevels(4), false, 5);
        for (int i = 70; i < 75; i++) {
            double[] around = tail.neighbours(g[i] / expected[3]);
            assertTrue(Math.abs(out[i] - around[0] * expected[3]) < 1e-6
                    || Math.abs(out[i] - around[1] * expected[3]) < 1e-6, "value " + i + " scaled by its tensor");
        }

        Compressor flat = Compressors.create("qinf", Map.of("bits", 2L, "bucket_size", 32L), 1).copy(0);
        flat.bind(TWO_TENSORS);
        assertEquals(3 * 32 + 2 * 75, flat.encode(g, 0, 75).bits(), "per_layer false ignores the layout");
        Compressor unbound = Compressors.create("nuq", Map.of("bucket_size", 32L, "per_layer", true), 1).copy(0);
        assertEquals(3 * 32 + 4 * 75, unbound.encode(g, 0, 75).bits(), "unbound: one flat vector");
    }

    @Test
    void perLayerNormsAreTheTensorsOwnUnderL2() {
        float[] g = TestGradients.gaussian(75, 3);
        Compressor nuq = Compressors.create("nuq", Map.of("bucket_size", 100L, "per_layer", true), 1).copy(0);
        nuq.bind(TWO_TENSORS);
        Payload p = nuq.encode(g, 0, 75);
        assertEquals(2 * 32 + 4 * 75, p.bits());
        assertEquals(norm(g, 0, 70), LittleEndian.getFloat(p.bytes(), 0));
        assertEquals(norm(g, 70, 75), LittleEndian.getFloat(p.bytes(), 4));
    }

    @Test
    void learnedLevelsAreUsedAndSavedWithTheStream() throws IOException {
        float[] g = TestGradients.gaussian(100, 4);
        double[] learned = {-1, -0.3, -0.1, -0.02, 0.02, 0.1, 0.3, 1};
        Learned a = new Learned(7, 1);
        a.encode(g, 0, 100);
        a.learn(learned);
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        a.saveState(new DataOutputStream(state));
        assertEquals(24 + 4 + 8 * 8, state.size(), "stream, level count, levels");
        byte[] next = a.encode(g, 0, 100).copy().bytes();
        Learned fresh = new Learned(7, 2);
        fresh.learn(learned);
        new LevelOracle(learned, true, 32).assertOnNeighbouringLevels(fresh, g);

        Learned restored = new Learned(7, 1);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        assertArrayEquals(learned, restored.levels());
        assertArrayEquals(next, restored.encode(g, 0, 100).bytes());
        restored.reset();
        assertArrayEquals(LevelQuantizer.uniformLevels(8), restored.levels(), "reset restores the first levels");
    }

    @Test
    void learnedLevelsAreUnbiased() {
        float[] g = TestGradients.gaussian(64, 5);
        double[] learned = {-1, -0.4, -0.05, 0.01, 0.2, 0.9, 1};
        Learned c = new Learned(3, 0);
        c.learn(learned);
        new LevelOracle(learned, true, 32).assertUnbiased(c, g, 2000);
    }

    @Test
    void badLevelsAndFixedLevelsFail() {
        Learned c = new Learned(1, 0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.learn(new double[] {-1, 0, 0, 1}))
                .getMessage().startsWith("levels must increase strictly within [-1, 1]"));
        assertEquals("levels must number between 2 and 2^3, found 9", assertThrows(IllegalArgumentException.class,
                () -> c.learn(LevelQuantizer.uniformLevels(9))).getMessage());
        Qsgd fixed = (Qsgd) Compressors.create("qsgd", Map.of(), 1);
        assertThrows(IllegalStateException.class, () -> fixed.setLevels(new double[] {-1, 1}));
    }
}
