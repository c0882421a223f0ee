package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepTimesTest {
    @Test
    void blocksWaitOnceAtTheirEnd() {
        List<String> calls = new ArrayList<>();
        StepTimes.measure(() -> calls.add("step"), () -> calls.add("sync"), 2, 12, 5);
        // 2 warm-up steps and their wait, then 12 / 5 = 2 blocks of 5 steps, each ending with a wait
        List<String> expected = new ArrayList<>(List.of("step", "step", "sync"));
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < 5; i++) {
                expected.add("step");
            }
            expected.add("sync");
        }
        assertEquals(expected, calls);
    }

    @Test
    void fewerStepsThanABlockStillTimeOneBlock() {
        int[] steps = {0};
        StepTimes.measure(() -> steps[0]++, () -> { }, 0, 2, 5);
        assertEquals(5, steps[0]);
    }

    @Test
    void aBlockOfOneTimesEveryStep() {
        List<String> calls = new ArrayList<>();
        StepTimes.measure(() -> calls.add("step"), () -> calls.add("sync"), 0, 3, 1);
        assertEquals(List.of("sync", "step", "sync", "step", "sync", "step", "sync"), calls);
    }
}
