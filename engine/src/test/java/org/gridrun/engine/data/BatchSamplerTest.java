package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
    void aRestoredSamplerDrawsWhatTheSavedOneWouldHaveDrawn() throws IOException {
        BatchSampler sampler = new BatchSampler(50, 8, 3, 2);
        draw(sampler, 9); // into the second epoch, whose permutation shuffled the first one
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        sampler.saveState(new DataOutputStream(bytes));
        assertEquals(44 + 4 * 50, bytes.size());
        int[][] expected = draw(sampler, 20);

        BatchSampler restored = new BatchSampler(50, 8, 3, 2);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(1, restored.epoch());
        assertArrayEquals(expected, draw(restored, 20));

        BatchSampler otherBatch = new BatchSampler(50, 10, 3, 2);
        assertEquals("saved sampler draws batches of 8 from 50 images; this one batches of 10 from 50",
                assertThrows(IllegalStateException.class, () -> otherBatch.restoreState(
                        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())))).getMessage());
    }

    @Test
    void batchesDrawnCountsAcrossEpochsAndSurvivesARestore() throws IOException {
        BatchSampler sampler = new BatchSampler(23, 5, 1, 0);
        assertEquals(0, sampler.batchesDrawn());
        draw(sampler, 11); // four per epoch, three dropped images each
        assertEquals(11, sampler.batchesDrawn());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        sampler.saveState(new DataOutputStream(bytes));
        BatchSampler restored = new BatchSampler(23, 5, 1, 0);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(11, restored.batchesDrawn());
    }

    @Test
    void batchLargerThanTheDataFails() {
        assertThrows(IllegalArgumentException.class, () -> new BatchSampler(5, 6, 1, 0));
    }
}
