package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.gridrun.engine.compress.Aggregation;
import org.gridrun.engine.compress.CollectiveCompressor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.TensorLayout;
import org.junit.jupiter.api.Test;

class SimulatedCollectiveTest {
    @Test
    void allReduceAveragesAndCountsWhatEachWorkerSends() {
        Compressor prototype = Compressors.create("none", Map.of(), 1);
        Compressor[] workers = {prototype.copy(0), prototype.copy(1), prototype.copy(2)};
        Payload[] payloads = {
            workers[0].encode(new float[] {1, 2}, 0, 2),
            workers[1].encode(new float[] {3, 4}, 0, 2),
            workers[2].encode(new float[] {5, -6}, 0, 2),
        };
        SimulatedCollective collective = new SimulatedCollective(3, 2);
        float[] out = new float[2];
        collective.aggregate(Aggregation.ALL_REDUCE, workers, payloads, out);
        assertArrayEquals(new float[] {3, 0}, out, 1e-6f);
        assertEquals(64, collective.meanPayloadBits());
        assertEquals(8, collective.meanPayloadBytes());
        assertEquals(8 * 2.0 * 2 / 3, collective.ringBytesPerWorker(), 1e-9);
    }

    @Test
    void allGatherDecodesEachPayloadWithItsOwnCompressor() {
        Compressor prototype = Compressors.create("qsgd", Map.of("bits", 8L, "bucket_size", 1L), 1);
        Compressor[] workers = {prototype.copy(0), prototype.copy(1)};
        // Buckets of one value decode exactly (r = ±1): worker norms differ, so each payload needs its own decode.
        Payload[] payloads = {
            workers[0].encode(new float[] {2, -4, 0}, 0, 3),
            workers[1].encode(new float[] {6, 8, 1}, 0, 3),
        };
        SimulatedCollective collective = new SimulatedCollective(2, 3);
        float[] out = new float[3];
        collective.aggregate(Aggregation.ALL_GATHER, workers, payloads, out);
        assertArrayEquals(new float[] {4, 2, 0.5f}, out, 1e-6f);
        assertEquals(3 * 32 + 3 * 8, collective.meanPayloadBits());
        assertEquals(15, collective.meanPayloadBytes());
        assertEquals(15, collective.ringBytesPerWorker(), 1e-9);
    }

    @Test
    void aCollectiveMethodRunsItsRoundsForAllWorkersAndCountsThem() {
        Compressor prototype = Compressors.create("powersgd", Map.of("rank", 1L, "min_compression_rate", 1.0), 1);
        CollectiveCompressor[] workers = new CollectiveCompressor[2];
        for (int w = 0; w < 2; w++) {
            workers[w] = (CollectiveCompressor) prototype.copy(w);
            workers[w].bind(TensorLayout.of(java.util.List.of("w"), java.util.List.of(new int[] {4, 3})));
        }
        // Both workers hold rank-1 matrices with the same row space: the rank-1 average is exact.
        float[][] gradients = {{1, 2, 3, 2, 4, 6, 0, 0, 0, -1, -2, -3}, {3, 6, 9, 0, 0, 0, 1, 2, 3, 1, 2, 3}};
        SimulatedCollective collective = new SimulatedCollective(2, 12);
        float[] out = new float[12];
        collective.reduce(workers, gradients, out);
        assertArrayEquals(new float[] {2, 4, 6, 1, 2, 3, 0.5f, 1, 1.5f, 0, 0, 0}, out, 1e-5f);
        assertEquals(32 * (4 + 3), collective.meanPayloadBits());
        assertEquals(4 * (4 + 3), collective.meanPayloadBytes());
        assertEquals(28 * 2.0 * 1 / 2, collective.ringBytesPerWorker(), 1e-9);
    }
}
