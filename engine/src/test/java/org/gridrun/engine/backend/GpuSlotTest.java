package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job's slot picks its GPU: slot mod the visible GPUs, GPU 0 without one, a clear message for a bad one. */
class GpuSlotTest {
    @Test
    void slotsGoRoundTheVisibleGpus() {
        int[] expected = {0, 1, 2, 0, 1, 2, 0};
        for (int slot = 0; slot < expected.length; slot++) {
            assertEquals(expected[slot], GpuSlot.ordinal(slot(String.valueOf(slot)), 3), "slot " + slot);
        }
        assertEquals(0, GpuSlot.ordinal(slot("5"), 1), "one GPU takes every slot");
        assertEquals(1, GpuSlot.ordinal(slot(" 3\n"), 2), "white space around the number is fine");
    }

    @Test
    void aJobWithoutASlotTrainsOnGpuZero() {
        assertEquals(0, GpuSlot.ordinal(Map.of(), 4));
        assertEquals(0, GpuSlot.ordinal(slot(" "), 4));
    }

    @Test
    void aSlotThatIsNotAWholeNumberIsRefusedByName() {
        for (String bad : new String[] {"-1", "one", "1.5", "99999999999"}) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> GpuSlot.ordinal(slot(bad), 2), bad);
            assertTrue(e.getMessage().startsWith("GRIDRUN_GPU_SLOT must be a whole number of 0 or more")
                    && e.getMessage().endsWith("found '" + bad + "'"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> GpuSlot.ordinal(slot("0"), 0));
    }

    private static Map<String, String> slot(String text) {
        return Map.of(GpuSlot.VARIABLE, text);
    }
}
