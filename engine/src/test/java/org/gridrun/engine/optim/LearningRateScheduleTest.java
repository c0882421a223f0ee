package org.gridrun.engine.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LearningRateScheduleTest {
    @Test
    void multistepDropsAfterEachMilestoneAsMultiStepLrDoes() {
        // The seed's grids: 40000,60000 at rate 0.1. After 40000 completed iterations the rate is 0.1 lr, so step
        // 40000 (the 40000th) still uses lr and step 40001 is the first at 0.1 lr.
        LearningRateSchedule s = LearningRateSchedule.multistep(0.1, List.of(40000L, 60000L), 0.1, 0);
        assertEquals(0.1, s.at(1));
        assertEquals(0.1, s.at(40000));
        assertEquals(0.01, s.at(40001), 1e-15);
        assertEquals(0.01, s.at(60000), 1e-15);
        assertEquals(0.001, s.at(60001), 1e-15);
        assertEquals(0.001, s.at(80000), 1e-15);
        assertEquals(0.1, LearningRateSchedule.multistep(0.1, List.of(), 0.1, 0).at(123456), "no milestone: constant");
    }

    @Test
    void cosineGoesFromLrTowardsZeroOverTheRun() {
        LearningRateSchedule s = LearningRateSchedule.cosine(0.4, 100, 0);
        assertEquals(0.4, s.at(1));
        assertEquals(0.2, s.at(51), 1e-15);
        assertEquals(0.2 * (1 + Math.cos(Math.PI * 99 / 100)), s.at(100), 1e-15);
        assertTrue(s.at(100) > 0 && s.at(100) < 1e-3, "the last step is near zero: " + s.at(100));
        assertTrue(s.at(30) > s.at(31), "decreasing");
    }

    @Test
    void warmUpRisesLinearlyToTheScheduledRate() {
        LearningRateSchedule s = LearningRateSchedule.multistep(0.8, List.of(10L), 0.5, 4);
        assertEquals(0.2, s.at(1), 1e-15);
        assertEquals(0.4, s.at(2), 1e-15);
        assertEquals(0.6, s.at(3), 1e-15);
        assertEquals(0.8, s.at(4), 1e-15);
        assertEquals(0.8, s.at(10), 1e-15);
        assertEquals(0.4, s.at(11), 1e-15);
        assertEquals(0.5 * 0.5 * (1 + Math.cos(Math.PI / 100)), LearningRateSchedule.cosine(1, 100, 4).at(2), 0,
                "warm-up multiplies the cosine too");
    }

    @Test
    void badSchedulesFail() {
        assertEquals("milestones must be positive and increasing, found [60000, 40000]", assertThrows(
                IllegalArgumentException.class, () -> LearningRateSchedule.multistep(0.1, List.of(60000L, 40000L),
                        0.1, 0)).getMessage());
        assertEquals("warmup_iters must not be negative, found -1", assertThrows(IllegalArgumentException.class,
                () -> LearningRateSchedule.cosine(0.1, 10, -1)).getMessage());
        assertEquals("steps are counted from 1, found 0", assertThrows(IllegalArgumentException.class,
                () -> LearningRateSchedule.cosine(0.1, 10, 0).at(0)).getMessage());
    }
}
