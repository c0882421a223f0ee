package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writing SLURM scripts for experiments meant for a GPU whose jobs ask SLURM for none: a warning where they are on
 * backend cuda (they will fail), a note where auto (they will train on the CPUs), silence where a GPU is asked for.
 */
class SlurmGpuRequestTest {
    @TempDir
    Path workdir;

    @Test
    void jobsThatAskForNoGpuAreNamed() throws IOException {
        Path grid = workdir.resolve("gpus.yaml");
        Files.writeString(grid, """
                defaults: {hidden: 8, ngpu: 2, batch_size: 8, niters: 4}
                runs:
                  cuda:
                    exclude: [hidden, ngpu, batch_size, niters]
                    grid: {backend: cuda, method: [none, qsgd]}
                  auto:
                    exclude: [hidden, ngpu, batch_size, niters]
                    grid: {method: none}
                  asked:
                    exclude: [hidden, ngpu, batch_size, niters]
                    grid: {backend: cuda, method: topk}
                    slurm: {gres: "gpu:1"}
                  cpu:
                    exclude: [hidden, ngpu, batch_size, niters]
                    grid: {backend: cpu, method: signsgd}
                """);
        Cli.Result written = Cli.run(workdir, "--grid", grid.toString(), "--cluster", "slurm");
        assertEquals(0, written.exit(), written.err() + written.out());
        String out = written.out();
        String cuda = section(out, "run cuda:");
        assertTrue(cuda.contains("warning: 2 experiments on backend: cuda, but the grid's slurm: block asks for no "
                + "GPU (gres: gpu:1), so SLURM gives them none and they will fail"), out);
        assertTrue(section(out, "run auto:").contains("note: the grid's slurm: block asks for no GPU (gres: gpu:1), "
                + "so backend: auto trains on the nodes' CPUs"), out);
        assertFalse(section(out, "run asked:").contains("GPU"), out);
        assertFalse(section(out, "run cpu:").contains("GPU"), out);
    }

    /** The lines of {@code out} from the one starting with {@code start} up to the next run's. */
    private static String section(String out, String start) {
        int from = out.indexOf(start);
        assertTrue(from >= 0, start + " in " + out);
        int to = out.indexOf("\nrun ", from + 1);
        return out.substring(from, to < 0 ? out.length() : to);
    }
}
