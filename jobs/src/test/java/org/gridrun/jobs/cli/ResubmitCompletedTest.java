package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code grid-run resubmit --completed --where KEY=VALUE}: after a fix to a method, its completed experiments run
 * again from their first step, what they wrote kept in {@code attempt-<k>/}, and the grid's other experiments stay.
 */
class ResubmitCompletedTest {
    private static final String GRID = """
            defaults: {hidden: 8, ngpu: 2, batch_size: 8, niters: 4, log_interval: 2, chkpt_iter: 2}
            runs:
              r:
                exclude: [hidden, ngpu, batch_size, niters, log_interval, chkpt_iter]
                grid: {method: [none, qsgd]}
            """;

    @TempDir
    Path workdir;

    @Test
    void rerunsOnlyTheMatchingCompletedExperimentsFromTheirFirstStep() throws IOException {
        Files.createDirectories(workdir.resolve("grids"));
        Files.writeString(workdir.resolve("grids/rc.yaml"), GRID);
        Cli.Result first = Cli.run(workdir, "--grid", "rc", "--jobs", "1", "--report-every", "0");
        assertEquals(0, first.exit(), first.out() + first.err());
        RunDir none = dir("none");
        RunDir qsgd = dir("qsgd");
        byte[] noneSpool = Files.readAllBytes(none.metricsFile());
        byte[] qsgdSpool = Files.readAllBytes(qsgd.metricsFile());
        byte[] qsgdCheckpoint = Files.readAllBytes(qsgd.checkpointFile());

        Cli.Result failedOnly = Cli.run(workdir, "resubmit", "--grid", "rc", "--where", "method=qsgd", "--dry-run");
        assertEquals(0, failedOnly.exit(), failedOnly.err());
        assertFalse(failedOnly.out().contains("would run"), "completed runs rerun only with --completed: "
                + failedOnly.out());
        Cli.Result dry = Cli.run(workdir, "resubmit", "--grid", "rc", "--completed", "--where", "method=qsgd",
                "--dry-run");
        assertEquals(0, dry.exit(), dry.err());
        assertTrue(dry.out().contains("would run  " + workdir.relativize(qsgd.path())) || dry.out().contains(
                "would run  runs/rc/r/" + qsgd.path().getFileName()), dry.out());
        assertFalse(dry.out().contains("would run  runs/rc/r/" + none.path().getFileName()), dry.out());
        assertFalse(Files.exists(qsgd.path().resolve("attempt-1")), "a dry run moves nothing");

        Cli.Result again = Cli.run(workdir, "resubmit", "--grid", "rc", "--completed", "--where", "method=qsgd",
                "--jobs", "1", "--report-every", "0");
        assertEquals(0, again.exit(), again.out() + again.err());
        assertTrue(again.out().contains(qsgd.path().getFileName() + ": completed results moved to attempt-1/"),
                again.out());
        Path archive = qsgd.path().resolve("attempt-1");
        assertArrayEquals(qsgdSpool, Files.readAllBytes(archive.resolve(RunDir.METRICS_FILE)));
        assertArrayEquals(qsgdCheckpoint, Files.readAllBytes(archive.resolve(RunDir.CHECKPOINT_FILE)));
        assertTrue(Files.exists(archive.resolve(RunDir.LOG_FILE)));

        List<StatusEntry> history = qsgd.status().history();
        assertEquals(RunState.COMPLETED, history.get(history.size() - 1).state());
        assertEquals(2, history.stream().filter(e -> e.state() == RunState.COMPLETED).count(), history.toString());
        assertTrue(history.stream().noneMatch(e -> e.detail().contains("resumed")), "trained from its first step: "
                + history);
        List<MetricRecord> rerun = MetricSpool.read(qsgd.metricsFile());
        assertTrue(rerun.stream().anyMatch(m -> m.name().equals("loss") && m.step() == 2), rerun.toString());
        assertTrue(rerun.stream().anyMatch(m -> m.name().equals("loss") && m.step() == 4), rerun.toString());
        assertNotEquals(0, Files.size(qsgd.checkpointFile()));

        assertArrayEquals(noneSpool, Files.readAllBytes(none.metricsFile()), "the other experiment is left alone");
        assertFalse(Files.exists(none.path().resolve("attempt-1")));
        Cli.Result status = Cli.run(workdir, "status", "--grid", "rc");
        assertTrue(status.out().contains("COMPLETED 2"), status.out());
    }

    @Test
    void aConditionThatNoExperimentCanMeetIsAMistakeNamedAsGiven() throws IOException {
        Files.createDirectories(workdir.resolve("grids"));
        Files.writeString(workdir.resolve("grids/rc.yaml"), GRID);
        Cli.Result typo = Cli.run(workdir, "resubmit", "--grid", "rc", "--completed", "--where", "methd=qsgd",
                "--dry-run");
        assertNotEquals(0, typo.exit());
        assertTrue(typo.err().contains("--where methd=qsgd: no experiment of the grid has the key 'methd'"),
                typo.err());
        Cli.Result bare = Cli.run(workdir, "resubmit", "--grid", "rc", "--where", "qsgd", "--dry-run");
        assertNotEquals(0, bare.exit());
        assertTrue(bare.err().contains("--where qsgd: expected KEY=VALUE"), bare.err());
    }

    private RunDir dir(String method) throws IOException {
        try (var dirs = Files.list(workdir.resolve("runs/rc/r"))) {
            return RunDir.at(dirs.filter(p -> p.getFileName().toString().contains("method_" + method)).findFirst()
                    .orElseThrow());
        }
    }
}
