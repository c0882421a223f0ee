package org.gridrun.engine.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.TensorLayout;
import org.junit.jupiter.api.Test;

class DecaySegmentsTest {
    /** A 2×2 weight, its bias, a batch-norm scale and shift, and a 1×2 weight: vectors at 4–7, matrices around. */
    private static final TensorLayout LAYOUT = new TensorLayout(List.of(
            new TensorLayout.Tensor("fc1.weight", new int[] {2, 2}, 0),
            new TensorLayout.Tensor("fc1.bias", new int[] {2}, 4),
            new TensorLayout.Tensor("bn.weight", new int[] {1}, 6),
            new TensorLayout.Tensor("bn.bias", new int[] {1}, 7),
            new TensorLayout.Tensor("fc2.weight", new int[] {1, 2}, 8)));

    @Test
    void vectorsAreLeftOutAndNeighboursMerge() {
        assertEquals(List.of(new DecaySegments.Segment(0, 4, true), new DecaySegments.Segment(4, 4, false),
                new DecaySegments.Segment(8, 2, true)), DecaySegments.excludingVectors(LAYOUT).segments());
        assertEquals(10, DecaySegments.excludingVectors(LAYOUT).size());
    }

    @Test
    void sgdDecaysOnlyTheMatricesWhenVectorsAreExcluded() {
        float[] p0 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        float[] g = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        // lr 0.1, momentum 0.9 (first step: v = d), weight decay 0.5: decayed p − 0.1(1 + 0.5p), undecayed p − 0.1.
        float[] expected = {0.85f, 1.8f, 2.75f, 3.7f, 4.9f, 5.9f, 6.9f, 7.9f, 8.45f, 9.4f};
        assertArrayEquals(expected, sgdStep(DecaySegments.excludingVectors(LAYOUT), p0, g), 1e-6f);
        float[] all = sgdStep(DecaySegments.all(10), p0, g);
        assertEquals(4.65f, all[4], 1e-6f, "without the exclusion the bias is decayed");
    }

    private static float[] sgdStep(DecaySegments segments, float[] p0, float[] g) {
        try (Backend backend = new CpuBackend(); Tensor p = backend.allocate(1, p0.length);
             Tensor grad = backend.allocate(1, g.length);
             Sgd sgd = new Sgd(backend, segments, 0.1, 0.9, false, 0.5)) {
            backend.upload(p0, 0, p);
            backend.upload(g, 0, grad);
            sgd.step(p, grad);
            float[] out = new float[p0.length];
            backend.download(p, out, 0);
            return out;
        }
    }
}
