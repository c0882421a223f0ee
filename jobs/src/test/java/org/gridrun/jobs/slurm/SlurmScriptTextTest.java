package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.grids.SlurmSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden files seal the text of the generated scripts: a change shows up as a diff of
 * {@code src/test/resources/org/gridrun/jobs/slurm/golden/}. To accept an intended change, run the test with
 * {@code -Dgridrun.golden.update=true} and review the diff.
 */
class SlurmScriptTextTest {
    private static final Path GOLDEN = Path.of("src/test/resources/org/gridrun/jobs/slurm/golden");

    @TempDir
    Path tmp;

    static SlurmSpec seedLikeSpec() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("partition", "gpu");
        options.put("time", "12-12:00:00");
        options.put("gres", "gpu:1");
        options.put("cpus-per-task", "3");
        options.put("mem", "18G");
        options.put("account", "def-lab");
        options.put("qos", "normal");
        options.put("constraint", "p100");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GRIDRUN_DATA_DIR", "/datasets/cifar 10");
        return new SlurmSpec(options, 3, 120, List.of("module load java/17", "source $HOME/venv/bin/activate"),
                env, List.of("--exclusive"));
    }

    static ArrayRequest request(SlurmSpec spec, int first, int tasks, int concurrent, String partition) {
        return new ArrayRequest("nuq", "mnist", "jobs/nuq_mnist", "jobs/nuq_mnist_slurm.sbatch", first, tasks,
                concurrent, partition, spec, "/home/me/exp", "/opt/java/bin/java", "/home/me/gridrun/grid-run.jar",
                "1.0");
    }

    @Test
    void theSbatchFileOfTheSeedsLayout() throws IOException {
        golden("nuq_mnist_slurm.sbatch", SlurmScriptText.sbatch(request(seedLikeSpec(), 0, 4, 2, "p100")));
    }

    @Test
    void anArraySplitByTheClustersLimitStartsAtItsOffset() throws IOException {
        golden("nuq_mnist_slurm_1.sbatch", SlurmScriptText.sbatch(request(SlurmSpec.empty(), 1000, 3, 0, null)));
    }

    @Test
    void aTaskScriptRunsItsExperimentsInParallelThenWaits() throws IOException {
        golden("nuq_mnist_3.sh", SlurmScriptText.taskScript(request(seedLikeSpec(), 0, 4, 2, null), 3,
                List.of("runs/nuq/mnist/mnist_003_method_qsgd", "runs/nuq/mnist/mnist_007_method_it's"),
                List.of("{\"grid\":\"nuq\",\"run\":\"mnist\",\"name\":\"mnist_003_method_qsgd\"}",
                        "{\"name\":\"mnist_007_method_it's\"}"),
                SlurmSubmitter.trainArguments(2)));
    }

    @Test
    void thePartitionOfTheClusterArgsWinsOverTheGrids() {
        String text = SlurmScriptText.sbatch(request(seedLikeSpec(), 0, 4, 2, "p100"));
        assertTrue(text.contains("#SBATCH --partition=p100\n"), text);
        assertTrue(!text.contains("--partition=gpu"), text);
        assertTrue(SlurmScriptText.sbatch(request(seedLikeSpec(), 0, 4, 2, null)).contains("--partition=gpu\n"));
    }

    @Test
    void aThrottleAtOrAboveTheTaskCountIsLeftOut() {
        assertTrue(SlurmScriptText.sbatch(request(SlurmSpec.empty(), 0, 4, 4, null)).contains("--array=0-3\n"));
        assertTrue(SlurmScriptText.sbatch(request(SlurmSpec.empty(), 0, 4, 3, null)).contains("--array=0-3%3\n"));
    }

    @Test
    void everyGeneratedScriptIsValidBash() throws Exception {
        for (String text : List.of(SlurmScriptText.sbatch(request(seedLikeSpec(), 0, 4, 2, "p100")),
                SlurmScriptText.taskScript(request(seedLikeSpec(), 0, 4, 2, null), 0, List.of("runs/a b"), List.of("{\"a\": 1}"),
                        List.of("-cp", "$GRIDRUN_CLASSPATH", "Main", "train")))) {
            Path file = tmp.resolve("script.sh");
            Files.writeString(file, text);
            Process bash = new ProcessBuilder("bash", "-n", file.toString()).redirectErrorStream(true).start();
            String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, bash.waitFor(), output + "\n" + text);
        }
    }

    private static void golden(String name, String actual) throws IOException {
        Path file = GOLDEN.resolve(name);
        if (Boolean.getBoolean("gridrun.golden.update") || !Files.exists(file)) {
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(file, StandardCharsets.UTF_8), actual, "golden file " + file);
    }
}
