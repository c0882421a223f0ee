package org.gridrun.jobs.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.jobs.UserInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run bench ingest}: the rate at which the results store takes in a metric spool, measured on a
 * synthetic run directory and a fresh file store in a temporary directory that is deleted afterwards.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Time ingesting a synthetic metric spool of N records into a fresh results store, then "
                + "ingesting it again (which must add nothing).")
final class BenchIngestCommand implements Callable<Integer> {
    private static final String[] METRICS = {"loss", "bits", "bytes_sent", "encode_ms"};

    @Option(names = "--rows", paramLabel = "N", defaultValue = "1000000",
            description = "Metric records in the spool, spread over four metrics (default: ${DEFAULT-VALUE}).")
    int rows;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (rows < 1) {
            throw new UserInputException("--rows must be positive, found " + rows);
        }
        PrintWriter out = spec.commandLine().getOut();
        Path work = Files.createTempDirectory("gridrun-bench-ingest-");
        try {
            RunDir dir = syntheticRunDir(work.resolve("run"), rows);
            long bytes = Files.size(dir.metricsFile());
            try (ResultsStore store = ResultsStore.open(work.resolve("store/gridrun"))) {
                long cpu0 = processCpuNanos();
                long t0 = System.nanoTime();
                int first = store.ingest(dir);
                long t1 = System.nanoTime();
                long cpu1 = processCpuNanos();
                int second = store.ingest(dir);
                long t2 = System.nanoTime();
                out.printf(Locale.ROOT, "spool of %d records (%.1f MB), %d metrics:%n", rows, bytes / 1e6,
                        METRICS.length);
                out.printf(Locale.ROOT, "  ingest           %8.3f s  %,12.0f rows/s  (%d records)%n",
                        (t1 - t0) / 1e9, first / ((t1 - t0) / 1e9), first);
                if (cpu0 >= 0 && cpu1 > cpu0) {
                    out.printf(Locale.ROOT, "  cpu time         %8.3f s  %,12.0f rows per cpu-second (all threads; "
                            + "what a busy machine's wall time hides)%n", (cpu1 - cpu0) / 1e9,
                            first / ((cpu1 - cpu0) / 1e9));
                }
                out.printf(Locale.ROOT, "  ingest again     %8.3f s  (%d new records)%n", (t2 - t1) / 1e9, second);
                out.flush();
                return first == rows && second == 0 ? 0 : ErrorHandler.FAILURE;
            }
        } finally {
            BenchGridCommand.delete(work);
        }
    }

    /** The CPU time of this process so far, all threads, or -1 where the JVM does not tell. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private static RunDir syntheticRunDir(Path path, int rows) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("method", "qsgd");
        params.put("seed", 1L);
        RunDir dir = RunDir.at(path);
        dir.writeExperiment(new ExperimentRecord("bench", "ingest", "bench_000", "bench-ingest", params, params));
        long wall = System.currentTimeMillis();
        try (MetricSpool.Writer writer = MetricSpool.append(dir.metricsFile())) {
            for (int i = 0; i < rows; i++) {
                long step = i / METRICS.length;
                writer.write(new MetricRecord(METRICS[i % METRICS.length], step, 1.0 / (step + 1), wall + step));
            }
        }
        return dir;
    }
}
