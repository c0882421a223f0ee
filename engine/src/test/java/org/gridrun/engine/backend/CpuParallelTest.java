package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CpuParallelTest {
    @Test
    void bothRunsBothPartsAndRethrowsTheHelpersException() {
        AtomicInteger done = new AtomicInteger();
        CpuParallel.both(done::incrementAndGet, done::incrementAndGet);
        assertEquals(2, done.get());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CpuParallel.both(() -> {
                    throw new IllegalArgumentException("first part failed");
                }, done::incrementAndGet));
        assertEquals("first part failed", e.getMessage());
    }

    @Test
    void whenTheCallersPartFailsTheHelpersPartHasEndedBeforeTheExceptionArrives() {
        for (int round = 0; round < 3; round++) {
            AtomicInteger helperDone = new AtomicInteger();
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> CpuParallel.both(slowPart(helperDone), () -> {
                        throw new IllegalStateException("second part failed");
                    }));
            assertEquals("second part failed", e.getMessage());
            assertEquals(1, helperDone.get(), "the helper's part had ended when the caller's exception arrived");
        }
    }

    @Test
    void anInterruptedCallerStillWaitsForTheHelpersPartAndKeepsTheInterrupt() {
        AtomicInteger helperDone = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            CpuParallel.both(slowPart(helperDone), () -> {
            });
            assertEquals(1, helperDone.get());
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
        }
    }

    /** A part that takes 200 ms, then counts itself done. */
    private static Runnable slowPart(AtomicInteger done) {
        return () -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            done.incrementAndGet();
        };
    }

    @Test
    void aSplitInsideASplitDoesNotWaitOnItself() {
        AtomicInteger leaves = new AtomicInteger();
        Runnable inner = () -> CpuParallel.both(leaves::incrementAndGet, leaves::incrementAndGet);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> CpuParallel.both(inner, inner));
        assertEquals(4, leaves.get());
    }
}
