package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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
    void aSplitInsideASplitDoesNotWaitOnItself() {
        AtomicInteger leaves = new AtomicInteger();
        Runnable inner = () -> CpuParallel.both(leaves::incrementAndGet, leaves::incrementAndGet);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> CpuParallel.both(inner, inner));
        assertEquals(4, leaves.get());
    }
}
