package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridrun.grids.SlurmSpec;
import org.gridrun.jobs.local.JobLauncher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the generated sbatch file with bash, as SLURM would, with a fake trainer and a fake {@code scontrol}, and
 * sends it the USR1 that {@code --signal=B:USR1@120} sends before the time limit.
 */
class PreemptionTrapTest {
    @TempDir
    Path work;

    @Test
    void usr1ReachesEveryTrainerAndTheTaskRequeuesItself() throws Exception {
        Path scontrolLog = preempt(0);
        assertEquals(List.of("requeue 77_0"), Files.readAllLines(scontrolLog));
        for (String dir : List.of("runs/a", "runs/b")) {
            assertTrue(Files.exists(work.resolve(dir).resolve("usr1")), dir + " got USR1");
            // the script's experiments hold slots 0 and 1: on a task given two GPUs, one each
            assertEquals(List.of(dir.equals("runs/a") ? "0" : "1"),
                    Files.readAllLines(work.resolve(dir).resolve("slot")));
            // two trainers share the allocation: each may take half of 75 % for its heap, and the node's
            // GRIDRUN_JAVA_OPTS come after, one argument per word
            List<String> args = Files.readAllLines(work.resolve(dir).resolve("args"));
            int share = args.indexOf("-XX:MaxRAMPercentage=37.5");
            assertTrue(share >= 0 && args.indexOf("-Xmx3g") == share + 1
                    && args.indexOf("-Dgridrun.note=x") == share + 2, args.toString());
        }
    }

    @Test
    void afterMaxRequeuesTheTaskIsNotRequeuedAgain() throws Exception {
        Path scontrolLog = preempt(3);
        assertFalse(Files.exists(scontrolLog), "scontrol was not called");
        assertTrue(Files.exists(work.resolve("runs/a/usr1")));
    }

    private Path preempt(int restartCount) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(work.resolve("bin"));
        Path scontrolLog = work.resolve("scontrol.log");
        executable(bin.resolve("scontrol"), "#!/bin/bash\necho \"$*\" >> " + scontrolLog + "\n");
        executable(bin.resolve("java"), """
                #!/bin/bash
                dir="${@: -1}"
                trap 'echo usr1 > "$dir/usr1"; exit 0' USR1
                printf '%s\n' "$@" > "$dir/args"
                echo "$GRIDRUN_GPU_SLOT" > "$dir/slot"
                echo started > "$dir/started"
                for i in $(seq 200); do sleep 0.05; done
                """);
        ArrayRequest request = new ArrayRequest("g", "r", "jobs/g_r", "jobs/g_r_slurm.sbatch", 0, 1, 0, null,
                SlurmSpec.empty(), work.toString(), bin.resolve("java").toString(), "unused", "test");
        Files.createDirectories(work.resolve("jobs"));
        for (String dir : List.of("runs/a", "runs/b")) {
            Files.createDirectories(work.resolve(dir));
        }
        SlurmSubmitter.writeFile(work.resolve("jobs/g_r_0.sh"), SlurmScriptText.taskScript(request, 0,
                List.of("runs/a", "runs/b"), List.of("{}", "{}"), SlurmSubmitter.trainArguments(2)));
        SlurmSubmitter.writeFile(work.resolve("jobs/g_r_slurm.sbatch"), SlurmScriptText.sbatch(request));
        ProcessBuilder builder = new ProcessBuilder("bash", "jobs/g_r_slurm.sbatch").directory(work.toFile())
                .redirectErrorStream(true).redirectOutput(work.resolve("batch.log").toFile());
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put("SLURM_ARRAY_JOB_ID", "77");
        builder.environment().put(JobLauncher.USER_OPTIONS, " -Xmx3g  -Dgridrun.note=x ");
        builder.environment().put("SLURM_ARRAY_TASK_ID", "0");
        builder.environment().put("SLURM_RESTART_COUNT", String.valueOf(restartCount));
        Process batch = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(Files.exists(work.resolve("runs/a/started")) && Files.exists(work.resolve("runs/b/started")))) {
            assertTrue(System.nanoTime() < deadline, "the fake trainers did not start: "
                    + Files.readString(work.resolve("batch.log")));
            Thread.sleep(20);
        }
        new ProcessBuilder("kill", "-USR1", String.valueOf(batch.pid())).start().waitFor();
        assertTrue(batch.waitFor(10, TimeUnit.SECONDS), "the batch script ends after USR1");
        assertEquals(0, batch.exitValue(), Files.readString(work.resolve("batch.log")));
        return scontrolLog;
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
