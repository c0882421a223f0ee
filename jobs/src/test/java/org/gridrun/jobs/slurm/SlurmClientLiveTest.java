package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProcessSlurmClient} against the SLURM of this machine, when one answers: CI starts one with
 * {@code scripts/slurm-local.sh start}; elsewhere the test is skipped and says how to start one.
 */
class SlurmClientLiveTest {
    private static final Duration PATIENCE = Duration.ofSeconds(25);
    private static final String NO_SLURM =
            "no SLURM answers (sinfo failed): start one with scripts/slurm-local.sh start";

    private static boolean available;

    private final SlurmClient slurm = new ProcessSlurmClient();

    /** Asks once: a controller that is down makes sinfo wait for its whole timeout. */
    @BeforeAll
    static void askOnce() {
        available = new ProcessSlurmClient().available();
        if (!available) {
            System.err.println("SlurmClientLiveTest skipped: " + NO_SLURM);
        }
    }

    @BeforeEach
    void slurmAnswers() {
        Assumptions.assumeTrue(available, NO_SLURM);
    }

    @Test
    void anArrayIsQueuedOneTaskCancelledAndTheOtherFinishes(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("live.sbatch"), "#!/bin/bash\nsleep 2\necho done\n");
        String jobId = slurm.submit(List.of("--array=0-1", "--job-name=gridrun-live-test", "--time=1",
                "--output=" + dir.resolve("task-%a.out"), "--chdir=" + dir), script);

        List<QueuedTask> queued = slurm.queue(List.of(jobId));
        assertEquals(List.of(0, 1), queued.stream().map(QueuedTask::taskId).sorted().toList(), queued.toString());
        assertTrue(queued.stream().allMatch(t -> t.jobId().equals(jobId) && t.inFlight()), queued.toString());

        slurm.cancel(List.of(jobId + "_1"));
        waitUntilGone(jobId);

        assertEquals("done", read(dir.resolve("task-0.out")).strip());
        assertFalse(read(dir.resolve("task-1.out")).contains("done"), "the cancelled task did not finish");
        slurm.cancel(List.of(jobId));
    }

    @Test
    void theLimitsAllowAnArray() {
        assertTrue(slurm.limits().maxTasksPerArray() >= 1);
    }

    private void waitUntilGone(String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        List<QueuedTask> left = slurm.queue(List.of(jobId));
        while (!left.isEmpty()) {
            if (System.nanoTime() > deadline) {
                slurm.cancel(List.of(jobId));
                fail("job " + jobId + " still queued after " + PATIENCE.toSeconds() + "s: " + left);
            }
            Thread.sleep(250);
            left = slurm.queue(List.of(jobId));
        }
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
