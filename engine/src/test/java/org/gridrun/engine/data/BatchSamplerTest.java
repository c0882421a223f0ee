package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BatchSamplerTest {
    private static int[][] draw(BatchSampler sampler, int batches) {
        int[][] out = new int[batches][];
        for (int i = 0; i < batches; i++) {
            out[i] = sampler.next().clone();
        }
        return out;
    }

    @Test
    void sameSeedAndWorkerRepeatExactly() {
        assertArrayEquals(draw(new BatchSampler(100, 8, 3, 1), 30), draw(new BatchSampler(100, 8, 3, 1), 30));
    }

    @Test
    void workersAndSeedsDrawDifferentBatches() {
        int[][] worker0 = draw(new BatchSampler(100, 8, 3, 0), 5);
        assertFalse(Arrays.deepEquals(worker0, draw(new BatchSampler(100, 8, 3, 1), 5)));
        assertFalse(Arrays.deepEquals(worker0, draw(new BatchSampler(100, 8, 4, 0), 5)));
    }

    @Test
    void eachEpochIsAFreshPermutationWithoutRepeats() {
        BatchSampler sampler = new BatchSampler(50, 10, 9, 0);
        Set<Integer> first = new HashSet<>();
        for (int[] batch : draw(sampler, 5)) {
            Arrays.stream(batch).forEach(first::add);
        }
        assertEquals(50, first.size());
        assertEquals(0, sampler.epoch());
        int[] nextEpoch = sampler.next().clone();
        assertEquals(1, sampler.epoch());
        assertEquals(10, Arrays.stream(nextEpoch).distinct().count());
    }

    @Test
    void batchLargerThanTheDataFails() {
        assertThrows(IllegalArgumentException.class, () -> new BatchSampler(5, 6, 1, 0));
    }
}
