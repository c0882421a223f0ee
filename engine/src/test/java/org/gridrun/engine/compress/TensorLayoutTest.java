package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class TensorLayoutTest {
    @Test
    void tensorsFollowEachOtherAndViewAsMatrices() {
        TensorLayout layout = TensorLayout.of(List.of("conv.weight", "conv.bias"),
                List.of(new int[] {16, 3, 5, 5}, new int[] {16}));
        assertEquals(16 * 75 + 16, layout.size());
        TensorLayout.Tensor conv = layout.tensors().get(0);
        assertEquals(16, conv.rows());
        assertEquals(75, conv.columns());
        assertEquals(1200, layout.tensors().get(1).offset());
        assertEquals(1, layout.tensors().get(1).columns());
        assertEquals(7, TensorLayout.flat(7).size());
    }

    @Test
    void gapsAndEmptyDimensionsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new TensorLayout(List.of(
                new TensorLayout.Tensor("a", new int[] {2}, 0), new TensorLayout.Tensor("b", new int[] {2}, 3))));
        assertThrows(IllegalArgumentException.class, () -> new TensorLayout.Tensor("a", new int[] {0, 2}, 0));
    }
}
