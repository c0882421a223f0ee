package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JointSqFormatTest {
    @Test
    void mostBitsAreAPlainMapThreeScalesAndTheBudgetOfEachTensor() {
        JointSqFormat format = JointSqFormat.search(15, new int[] {0, 10, 15}, new long[] {3, 7});
        assertEquals(2, format.tensors());
        assertEquals((20 + 1 + 96 + 3) + (10 + 1 + 96 + 7), format.mostBits());
        // the least payload: one mode bit a tensor
        assertEquals(1, format.payloadBytes());
    }

    @Test
    void offsetsThatDoNotTileTheGradientAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JointSqFormat.search(15, new int[] {0, 10, 14}, new long[] {3, 7}));
        assertTrue(e.getMessage().contains("of a gradient of 15"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> JointSqFormat.search(15, new int[] {0, 12, 10, 15}, new long[] {3, 7, 1}));
        assertEquals("tensor 1: offsets 12..10, budget 7", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JointSqFormat.search(4, new int[] {0, 4}, new long[] {-1}));
    }
}
