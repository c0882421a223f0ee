package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HalvesTest {
    @AfterEach
    void restoreThreshold() {
        Halves.minValues = Halves.MIN_VALUES;
    }

    private static List<Object> run(Compressor prototype, float[] g, int threshold) {
        Halves.minValues = threshold;
        Compressor c = prototype.copy(2);
        c.bind(TensorLayout.of(List.of("w", "b"), List.of(new int[] {g.length - 1004}, new int[] {1001})));
        List<Object> results = new ArrayList<>();
        for (int step = 0; step < 2; step++) {
            Payload p = c.encode(g, 3, g.length - 3);
            float[] out = new float[g.length];
            c.decode(p, out, 1);
            results.add(p.copy().bytes());
            results.add(out);
        }
        return results;
    }

    /** Every method, with odd per-layer buckets where it has them: two threads give one thread's payloads and values. */
    @Test
    void bothPathsAgreeForEveryMethod() {
        float[] g = TestGradients.gaussian(9000, 11);
        for (String name : Compressors.names()) {
            List<String> keys = Compressors.provider(name).parameters().stream().map(k -> k.name()).toList();
            Map<String, Object> params = new java.util.HashMap<>();
            if (keys.contains("bucket_size")) {
                params.put("bucket_size", 333L);
            }
            if (keys.contains("per_layer")) {
                params.put("per_layer", true);
            }
            Compressor prototype = Compressors.create(name, params, 5);
            List<Object> one = run(prototype, g, Integer.MAX_VALUE);
            List<Object> two = run(prototype, g, 64);
            assertEquals(one.size(), two.size());
            for (int i = 0; i < one.size(); i += 2) {
                assertArrayEquals((byte[]) one.get(i), (byte[]) two.get(i), name + " payload " + i / 2);
                assertArrayEquals((float[]) one.get(i + 1), (float[]) two.get(i + 1), name + " decoded " + i / 2);
            }
        }
    }

    @Test
    void splitsAtAnAlignedMiddleAndSkipsAnEmptyPart() {
        List<int[]> parts = new ArrayList<>();
        Halves.split(1000, 64, true, (part, from, to) -> {
            synchronized (parts) {
                parts.add(new int[] {part, from, to});
            }
        });
        parts.sort((a, b) -> a[0] - b[0]);
        assertArrayEquals(new int[] {0, 0, 448}, parts.get(0));
        assertArrayEquals(new int[] {1, 448, 1000}, parts.get(1));
        parts.clear();
        Halves.split(100, 64, true, (part, from, to) -> parts.add(new int[] {part, from, to}));
        assertEquals(1, parts.size(), "an empty part is skipped");
        assertArrayEquals(new int[] {1, 0, 100}, parts.get(0));
    }
}
