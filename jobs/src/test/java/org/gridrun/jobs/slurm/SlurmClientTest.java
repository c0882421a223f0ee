package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * {@link ProcessSlurmClient} against a fake cluster: the command lines it runs, and what it makes of the answers
 * (recorded from SLURM 22.05.8 where the file name says so).
 */
class SlurmClientTest {
    private final List<List<String>> commands = new ArrayList<>();
    private final List<Map<String, String>> environments = new ArrayList<>();

    @Test
    void submitRunsSbatchParsableWithTheOptionsBeforeTheFile() {
        SlurmClient client = client(answer(0, "19\n", ""));
        assertEquals("19", client.submit(List.of("--array=0-3%2", "--job-name=g"), Path.of("jobs/g.sbatch")));
        assertEquals(List.of(List.of("sbatch", "--parsable", "--array=0-3%2", "--job-name=g", "jobs/g.sbatch")),
                commands);
    }

    @Test
    void submitDropsTheClusterNameOfAMultiClusterSetup() {
        assertEquals("4242", client(answer(0, "4242;gpu-cluster\n", "")).submit(List.of(), Path.of("a.sbatch")));
    }

    @Test
    void aRefusedSubmissionThrowsWithSbatchsOwnWords() {
        String stderr = SqueueParserTest.recorded("sbatch-array-too-large.err");
        SlurmException e = assertThrows(SlurmException.class,
                () -> client(answer(1, "", stderr)).submit(List.of("--array=0-1001"), Path.of("a.sbatch")));
        assertTrue(e.getMessage().contains("Batch job submission failed: Invalid job array specification"),
                e.getMessage());
        assertTrue(e.getMessage().startsWith("sbatch --parsable --array=0-1001 a.sbatch failed (exit 1)"),
                e.getMessage());
    }

    @Test
    void anAnswerWithoutAJobIdIsAnError() {
        SlurmException e = assertThrows(SlurmException.class,
                () -> client(answer(0, "Submitted batch job 5\n", "")).submit(List.of(), Path.of("a.sbatch")));
        assertTrue(e.getMessage().contains("printed no job id"), e.getMessage());
    }

    @Test
    void queueAsksForTheJobsOnlyWithFullArrayExpressions() {
        SlurmClient client = client(answer(0, SqueueParserTest.recorded("squeue-array-throttled.txt"), ""));
        List<QueuedTask> tasks = client.queue(List.of("19", "20"));
        assertEquals(List.of(List.of("squeue", "--noheader", "--format=%i|%T|%u", "--jobs=19,20")), commands);
        assertEquals(Map.of("SLURM_BITSTR_LEN", "0"), environments.get(0));
        assertEquals(5, tasks.size());
    }

    @Test
    void queueLeavesOutOtherUsersAndJobsNotAskedFor() {
        String output = "19_[2-3%2]|PENDING|root\n20|PENDING|root\n19_0|RUNNING|ann\n21|RUNNING|root\n";
        List<QueuedTask> tasks = client(answer(0, output, "")).queue(List.of("19", "20"));
        assertEquals(List.of("19_2", "19_3", "20"), tasks.stream().map(QueuedTask::id).toList());
    }

    @Test
    void aSingleTaskCanBeAskedForByItsOwnId() {
        List<QueuedTask> tasks = client(answer(0, "19_3|PENDING|root\n", "")).queue(List.of("19_3"));
        assertEquals(List.of("19_3"), tasks.stream().map(QueuedTask::id).toList());
    }

    @Test
    void jobsTheControllerHasForgottenAreAnEmptyQueue() {
        String stderr = SqueueParserTest.recorded("squeue-unknown-id.err");
        assertEquals(List.of(), client(answer(1, "", stderr)).queue(List.of("99999")));
    }

    @Test
    void anyOtherSqueueFailureThrows() {
        String stderr = "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n";
        SlurmException e = assertThrows(SlurmException.class, () -> client(answer(1, "", stderr)).queue(List.of("1")));
        assertTrue(e.getMessage().contains("Unable to contact slurm controller"), e.getMessage());
    }

    @Test
    void nothingToAskOrCancelRunsNothing() {
        SlurmClient client = client(answer(0, "", ""));
        assertEquals(List.of(), client.queue(List.of()));
        client.cancel(List.of());
        assertEquals(List.of(), commands);
    }

    @Test
    void cancelPassesJobsAndTasksToScancel() {
        client(answer(0, "", "")).cancel(List.of("19", "20_3"));
        assertEquals(List.of(List.of("scancel", "19", "20_3")), commands);
    }

    @Test
    void cancellingWhatHasEndedIsNotAnError() {
        String stderr = "scancel: error: Kill job error on job id 19: Job/step already completing or completed\n"
                + "scancel: error: Kill job error on job id 20: Invalid job id specified\n";
        client(answer(1, "", stderr)).cancel(List.of("19", "20"));
    }

    @Test
    void aRealCancelFailureThrows() {
        String stderr = "scancel: error: Kill job error on job id 19: Access/permission denied\n";
        assertThrows(SlurmException.class, () -> client(answer(1, "", stderr)).cancel(List.of("19")));
        assertThrows(SlurmException.class, () -> client(answer(1, "", "")).cancel(List.of("19")));
    }

    @Test
    void limitsComeFromScontrolAndSacctmgrWhenItAnswers() {
        String config = SqueueParserTest.recorded("scontrol-show-config.txt");
        ClusterLimits limits = client(byProgram(answer(0, config, ""), answer(0, "\n40\n", ""))).limits();
        assertEquals(new ClusterLimits(OptionalInt.of(1001), OptionalInt.of(40), OptionalInt.of(10000)), limits);
        assertEquals(List.of("sacctmgr", "--noheader", "--parsable2", "show", "assoc", "user=root",
                "format=MaxSubmit"), commands.get(1));
    }

    @Test
    void withoutSlurmdbdMaxSubmitJobsIsUnknown() {
        String config = SqueueParserTest.recorded("scontrol-show-config.txt");
        String stderr = SqueueParserTest.recorded("sacctmgr-no-slurmdbd.err");
        ClusterLimits limits = client(byProgram(answer(0, config, ""), answer(1, "", stderr))).limits();
        assertEquals(OptionalInt.empty(), limits.maxSubmitJobs());
        assertEquals(1001, limits.maxTasksPerArray());
    }

    @Test
    void aSacctmgrThatHangsOrIsMissingLeavesMaxSubmitJobsUnknown() {
        String config = SqueueParserTest.recorded("scontrol-show-config.txt");
        CommandRunner hangs = (command, environment, timeout) -> {
            throw new SlurmException("sacctmgr did not answer within 5s");
        };
        assertEquals(OptionalInt.empty(), client(byProgram(answer(0, config, ""), hangs)).limits().maxSubmitJobs());
    }

    @Test
    void aFailingScontrolThrows() {
        assertThrows(SlurmException.class, () -> client(answer(1, "", "Unable to contact slurm controller")).limits());
    }

    @Test
    void availableIsWhetherSinfoAnswersAndNeverThrows() {
        assertTrue(client(answer(0, "debug*\n", "")).available());
        assertEquals("sinfo", commands.get(0).get(0));
        assertFalse(client(answer(1, "", "slurm_load_partitions: Unable to contact slurm controller")).available());
        assertFalse(client((command, environment, timeout) -> {
            throw new SlurmException("cannot run sinfo: No such file or directory");
        }).available());
    }

    private SlurmClient client(CommandRunner runner) {
        return new ProcessSlurmClient(runner, "root");
    }

    /** A fake cluster that records each command and gives every one the same answer. */
    private CommandRunner answer(int exitCode, String stdout, String stderr) {
        return (command, environment, timeout) -> {
            commands.add(command);
            environments.add(environment);
            return new CommandRunner.Result(exitCode, stdout, stderr);
        };
    }

    /** A fake cluster where scontrol and sacctmgr answer differently. */
    private static CommandRunner byProgram(CommandRunner scontrol, CommandRunner sacctmgr) {
        return (command, environment, timeout) -> (command.get(0).equals("sacctmgr") ? sacctmgr : scontrol)
                .run(command, environment, timeout);
    }
}
