package org.gridrun.jobs.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.local.JobLauncher;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.Planner;
import org.gridrun.jobs.plan.TrainerKeySchema;
import org.gridrun.jobs.slurm.ClusterArgs;
import org.gridrun.jobs.slurm.SlurmSubmitter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run bench grid}: the time to expand a large grid and write its SLURM scripts, phase by phase, in a
 * temporary working directory that is deleted afterwards.
 */
@Command(name = "grid", mixinStandardHelpOptions = true,
        description = "Time expanding a grid of N experiments (five keys, N^(1/5) values each) and writing its "
                + "SLURM task scripts and sbatch file, phase by phase.")
final class BenchGridCommand implements Callable<Integer> {
    @Option(names = "--experiments", paramLabel = "N", defaultValue = "100000",
            description = "Experiments in the grid, rounded to a fifth power (default: ${DEFAULT-VALUE}).")
    int experiments;

    @Option(names = "--scripts", paramLabel = "N", defaultValue = "1000",
            description = "Task scripts to spread them over, as --cluster-args N (default: ${DEFAULT-VALUE}).")
    int scripts;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "3",
            description = "Repetitions; each phase's best time is reported (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        int side = (int) Math.round(Math.pow(experiments, 0.2));
        long[] best = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        int count = 0;
        for (int r = 0; r < repeat; r++) {
            Path work = Files.createTempDirectory("gridrun-bench-");
            try {
                Path gridFile = writeGrid(work, side);
                Workspace workspace = Workspace.at(work, work.resolve("runs/gridrun"));
                long t0 = System.nanoTime();
                GridFile file = GridFile.load(gridFile, new TrainerKeySchema());
                List<Experiment> expanded = file.expand("big");
                long t1 = System.nanoTime();
                try (ResultsStore store = ResultsStore.open(workspace.database())) {
                    Plan plan = new Planner(workspace, store).plan(file, List.of("big"));
                    long t2 = System.nanoTime();
                    new SlurmSubmitter(workspace, store, null, new ClusterArgs(scripts, 0, null), "bench")
                            .write("bench", "big", "bench_big", plan.toRun(),
                            file.slurm("big"), List.of(), false);
                    long t3 = System.nanoTime();
                    long[] phase = {t1 - t0, t2 - t1, t3 - t2, t3 - t0};
                    for (int i = 0; i < phase.length; i++) {
                        best[i] = Math.min(best[i], phase[i]);
                    }
                    count = expanded.size();
                }
            } finally {
                delete(work);
            }
        }
        out.printf(Locale.ROOT, "grid of %d experiments, %d task scripts, best of %d:%n", count, scripts, repeat);
        out.printf(Locale.ROOT, "  load + expand            %8.3f s%n", best[0] / 1e9);
        out.printf(Locale.ROOT, "  plan (validate configs)  %8.3f s%n", best[1] / 1e9);
        out.printf(Locale.ROOT, "  write scripts            %8.3f s%n", best[2] / 1e9);
        out.printf(Locale.ROOT, "  total                    %8.3f s%n", best[3] / 1e9);
        out.flush();
        return 0;
    }

    private static Path writeGrid(Path work, int side) throws IOException {
        String[] keys = {"lr", "momentum", "weight_decay", "batch_size", "seed"};
        StringBuilder grid = new StringBuilder("runs:\n  big:\n    grid:\n      method: qsgd\n");
        for (String key : keys) {
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= side; i++) {
                values.add(switch (key) {
                    case "lr" -> String.valueOf(i / 1000.0);
                    case "momentum" -> String.valueOf(i / (side + 1.0));
                    case "weight_decay" -> i + "e-5";
                    default -> String.valueOf(i);
                });
            }
            grid.append("      ").append(key).append(": [").append(String.join(", ", values)).append("]\n");
        }
        Path file = Files.createDirectories(work.resolve("grids")).resolve("bench.yaml");
        Files.writeString(file, grid);
        return file;
    }

    /** Deletes {@code dir} and everything in it. */
    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
