package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link CommandRunner#processes()} runs real commands (the shell) and gives up on one that hangs. */
class SlurmCommandRunnerTest {
    private static final Duration ENOUGH = Duration.ofSeconds(20);
    private final CommandRunner runner = CommandRunner.processes();

    @Test
    void returnsTheExitCodeAndBothOutputsApart() {
        CommandRunner.Result result = runner.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), Map.of(),
                ENOUGH);
        assertEquals(new CommandRunner.Result(3, "out\n", "err\n"), result);
        assertFalse(result.ok());
    }

    @Test
    void addsTheGivenEnvironment() {
        CommandRunner.Result result = runner.run(List.of("sh", "-c", "printf %s \"$SLURM_BITSTR_LEN\""),
                Map.of("SLURM_BITSTR_LEN", "0"), ENOUGH);
        assertTrue(result.ok());
        assertEquals("0", result.stdout());
    }

    @Test
    void readsMoreOutputThanAPipeHolds() {
        CommandRunner.Result result = runner.run(List.of("sh", "-c", "yes 0123456789 | head -n 100000"), Map.of(),
                ENOUGH);
        assertEquals(1_100_000, result.stdout().length());
    }

    @Test
    void standardInputIsClosedSoACommandThatReadsItEnds() {
        assertEquals("", runner.run(List.of("cat"), Map.of(), ENOUGH).stdout());
    }

    @Test
    void aCommandPastItsTimeoutIsKilledAndReported() {
        long start = System.nanoTime();
        SlurmException e = assertThrows(SlurmException.class,
                () -> runner.run(List.of("sleep", "30"), Map.of(), Duration.ofMillis(300)));
        assertTrue(e.getMessage().contains("sleep 30 did not answer within"), e.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos());
    }

    @Test
    void aMissingCommandIsReportedByName() {
        SlurmException e = assertThrows(SlurmException.class,
                () -> runner.run(List.of("no-such-slurm-command"), Map.of(), ENOUGH));
        assertTrue(e.getMessage().startsWith("cannot run no-such-slurm-command"), e.getMessage());
    }
}
