package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.gridrun.engine.compress.TensorLayout;
import org.junit.jupiter.api.Test;

class BenchLayoutTest {
    /** ResNet-18's parameter count (ImageNet head), summed by hand from its layer table. */
    private static final int RESNET18 = 11_689_512;

    @Test
    void theWholeNetworkHasResNet18sParameterCount() {
        TensorLayout layout = BenchLayout.resnet18(RESNET18);
        assertEquals(RESNET18, layout.size());
        List<TensorLayout.Tensor> t = layout.tensors();
        assertEquals("conv1.weight", t.get(0).name());
        assertArrayEquals(new int[] {64, 3, 7, 7}, t.get(0).shape());
        assertEquals(147, t.get(0).columns());
        assertEquals("fc.bias", t.get(t.size() - 1).name());
        assertEquals(20 + 1, t.stream().filter(x -> x.shape().length > 1).count(), "20 convolutions and the fc");
    }

    @Test
    void aSmallerSizeIsCutToExactlyThatManyValuesWithARestMatrixAndVector() {
        TensorLayout layout = BenchLayout.resnet18(11_000_000);
        assertEquals(11_000_000, layout.size());
        List<TensorLayout.Tensor> t = layout.tensors();
        TensorLayout.Tensor weight = t.get(t.size() - 2);
        TensorLayout.Tensor bias = t.get(t.size() - 1);
        assertEquals("rest.weight", weight.name());
        assertEquals(512, weight.columns());
        assertEquals("rest.bias", bias.name());
        assertTrue(bias.size() < 512, "the vector holds under one row: " + bias);
    }

    @Test
    void aSizeBelowTheFirstConvolutionIsOneFlatTensor() {
        assertEquals(TensorLayout.flat(1000), BenchLayout.resnet18(1000));
    }
}
