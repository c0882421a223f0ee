package org.gridrun.analysis;

import static org.gridrun.analysis.Fixtures.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.junit.jupiter.api.Test;

class RunRowTest {
    @Test
    void aCompletedAttemptKeepsFirstRunningAndTerminalTimes() {
        RunRow row = RunRow.fold(List.of(entry(RunState.STAGED, 0, "login", ""),
                entry(RunState.QUEUED, 1, "login", "job 5"), entry(RunState.RUNNING, 2, "node1", ""),
                entry(RunState.PREEMPTED, 3, "node1", "preempted"), entry(RunState.QUEUED, 4, "login", ""),
                entry(RunState.RUNNING, 5, "node2", ""), entry(RunState.COMPLETED, 6, "login", "exit 0")));
        assertEquals(new RunRow(RunState.COMPLETED, "node2", entry(RunState.RUNNING, 2, "", "").time(),
                entry(RunState.COMPLETED, 6, "", "").time(), "exit 0", null, entry(RunState.COMPLETED, 6, "", "").time()),
                row);
    }

    @Test
    void theJobOfAnAttemptIsTheLatestOneNamedAndEndsWithIt() {
        Instant t = Instant.ofEpochSecond(1_700_000_000L);
        RunRow row = RunRow.fold(List.of(new StatusEntry(RunState.QUEUED, t, "login", "slurm:7_1", ""),
                new StatusEntry(RunState.RUNNING, t.plusSeconds(1), "node1", "", "pid 9"),
                new StatusEntry(RunState.PREEMPTED, t.plusSeconds(2), "node1", "", ""),
                new StatusEntry(RunState.QUEUED, t.plusSeconds(3), "node1", "slurm:7_1", "requeued")));
        assertEquals("slurm:7_1", row.job());
        RunRow done = RunRow.next(row, new StatusEntry(RunState.COMPLETED, t.plusSeconds(4), "node1", "", ""));
        assertEquals("slurm:7_1", done.job());
        RunRow again = RunRow.next(done, new StatusEntry(RunState.QUEUED, t.plusSeconds(5), "login", "", ""));
        assertNull(again.job());
    }

    @Test
    void aResubmissionAfterFailureStartsANewAttempt() {
        RunRow row = RunRow.fold(List.of(entry(RunState.RUNNING, 1, "node1", ""),
                entry(RunState.FAILED, 2, "node1", "oom"), entry(RunState.QUEUED, 3, "login", "job 6")));
        assertEquals(RunState.QUEUED, row.state());
        assertNull(row.started());
        assertNull(row.ended());
        assertEquals("login", row.host());
        assertEquals("job 6", row.detail());
    }

    @Test
    void anEmptyHistoryHasNoRow() {
        assertNull(RunRow.fold(List.of()));
    }
}
