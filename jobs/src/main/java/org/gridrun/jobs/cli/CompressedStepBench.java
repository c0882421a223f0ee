package org.gridrun.jobs.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.train.TrainJob;
import org.gridrun.engine.train.TrainListener;
import org.gridrun.engine.train.Trainer;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.jobs.UserInputException;

/**
 * {@code grid-run bench train --method M}: the whole simulated data-parallel step of the trainer itself (every
 * worker's forward and backward, its compressor's encode, the simulated collective's decode and average, the update),
 * once with method {@code none} and once with {@code M} on the same workers, model and batch, and their ratio: what a
 * compressor adds to a step. The times are the trainer's own {@code step_ms} records: one per step on the CPU, one
 * per block of {@link StepTimes#GPU_BLOCK} steps on the GPU (logged every block, so the steps between run on the device
 * while the host prepares the next, as between a run's logs; the record is their mean). Where the
 * workers' passes ran at the same time ({@code concurrent_workers} on cuda), a line under the row times none's step
 * with them one after another.
 *
 * <p>The data is the trainer's: Fashion-MNIST for the 28×28 models (the shipped subset without the Debian package),
 * {@code synthetic-cifar} for the 32×32×3 ones, so no download is needed.
 */
final class CompressedStepBench {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The models this bench trains: those whose data gridrun can make or ships. */
    static final List<String> MODELS = BenchTrainCommand.KNOWN.stream()
            .filter(m -> !BenchTrainCommand.IMAGENET.contains(m) && !m.equals("lstm")).toList();

    private final String backend;
    private final int workers;
    private final int batch;
    private final int warmup;
    private final int steps;
    private final Map<String, String> settings;

    /**
     * @param batch    examples per step over all workers (each worker gets {@code batch / workers})
     * @param settings further trainer keys of the compressed run, e.g. {@code bits=3}; {@code cuda_graph} and
     *                 {@code concurrent_workers} apply to the uncompressed run too
     */
    CompressedStepBench(String backend, int workers, int batch, int warmup, int steps, Map<String, String> settings) {
        if (workers < 1 || batch % workers != 0) {
            throw new UserInputException("--workers must be positive and divide --batch, found " + workers
                    + " workers for a batch of " + batch);
        }
        this.backend = backend;
        this.workers = workers;
        this.batch = batch;
        this.warmup = warmup;
        this.steps = steps;
        this.settings = Map.copyOf(settings);
    }

    /** Prints the header and one row per model: none's and the method's step times, and the ratio of medians. */
    void print(PrintWriter out, List<String> models, String method) {
        for (String model : models) {
            if (!MODELS.contains(model)) {
                throw new UserInputException("--method times the trainer's step on data gridrun has at hand: "
                        + "--model must be one of " + MODELS + ", found '" + model + "'");
            }
        }
        String timed = block() == 1 ? timedSteps() + " steps"
                : timedSteps() / block() + " blocks of " + block() + " steps (logged at each block's end)";
        out.printf(Locale.ROOT, "the trainer's whole step on %s: %d workers x batch %d, min and median of %s after %d "
                + "warm-up; %s%s against none%n", backend, workers, batch / workers, timed, warmupSteps(), method,
                settings.isEmpty() ? "" : " " + settings);
        out.printf(Locale.ROOT, "%-10s %10s %10s %12s %12s %8s%n", "model", "none min", "none median",
                method + " min", method + " median", "ratio");
        for (String model : models) {
            Timed none = times(model, "none", stepKeys());
            StepTimes plain = none.times();
            Timed withMethod = times(model, method, settings);
            StepTimes compressed = withMethod.times();
            out.printf(Locale.ROOT, "%-10s %10.2f %10.2f %12.2f %12.2f %8.2f%n", model, plain.min(), plain.median(),
                    compressed.min(), compressed.median(), compressed.median() / plain.median());
            if (!none.graphs().isEmpty()) {
                out.printf(Locale.ROOT, "%-10s none: %s; %s: %s%n", "", none.graphs(), method, withMethod.graphs());
            }
            if (none.atOnce()) {
                // the workers' passes ran at the same time: none's step with them one after another, for what that
                // gives, measured in the same run
                Map<String, String> serial = new LinkedHashMap<>(stepKeys());
                serial.put("concurrent_workers", "false");
                StepTimes oneByOne = times(model, "none", serial).times();
                out.printf(Locale.ROOT, "%-10s %10.2f %10.2f  none with the workers one after another; at once "
                        + "takes %.2fx its median%n", "", oneByOne.min(), oneByOne.median(),
                        plain.median() / oneByOne.median());
            }
            out.flush();
        }
    }

    /**
     * The settings that shape the step rather than the method ({@code cuda_graph}, {@code concurrent_workers}), which
     * none's run takes too.
     */
    private Map<String, String> stepKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String key : List.of("cuda_graph", "concurrent_workers")) {
            if (settings.containsKey(key)) {
                keys.put(key, settings.get(key));
            }
        }
        return keys;
    }

    /**
     * A run's step times, whether its workers' passes ran at the same time, and how its steps ran as device graphs
     * ({@link Backend#stepGraphs()}, empty on the CPU).
     */
    record Timed(StepTimes times, boolean atOnce, String graphs) {
    }

    /** The trainer's step times of {@code model} compressed by {@code method} with {@code extra} keys. */
    Timed times(String model, String method, Map<String, String> extra) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("model", model);
        params.put("dataset", model.equals("mlp") || model.equals("lenet5") ? "fashion-mnist" : "synthetic-cifar");
        params.put("backend", backend);
        params.put("ngpu", (long) workers);
        params.put("batch_size", (long) (batch / workers));
        params.put("method", method);
        params.put("niters", (long) (warmupSteps() + timedSteps()));
        params.put("log_interval", (long) block());
        params.put("chkpt_iter", (long) (warmupSteps() + timedSteps()));
        extra.forEach((key, value) -> params.put(key, scalar(value)));
        TrainerConfig config;
        try {
            config = TrainerConfig.from(TrainerConfig.resolve(params));
        } catch (ConfigException e) {
            throw new UserInputException("bench train --method " + method + ": " + e.getMessage());
        }
        Path spool = null;
        try {
            spool = Files.createTempFile("gridrun-bench-step", ".csv");
            boolean atOnce;
            String graphs;
            try (Backend b = Backends.open(config.backend());
                 Trainer trainer = new Trainer(config, b, TrainJob.load(config));
                 MetricSpool.Writer metrics = MetricSpool.append(spool)) {
                trainer.run(metrics, TrainListener.NONE);
                atOnce = trainer.workersAtOnce();
                graphs = b.stepGraphs();
            }
            List<Double> millis = MetricSpool.read(spool).stream()
                    .filter(r -> r.name().equals("step_ms") && r.step() > warmupSteps()).map(MetricRecord::value)
                    .toList();
            return new Timed(StepTimes.of(millis), atOnce, graphs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(spool);
        }
    }

    /** Steps a {@code step_ms} record averages ({@link StepTimes#block}). */
    private int block() {
        return StepTimes.block(backend);
    }

    /** The warm-up, rounded up to whole blocks. */
    private int warmupSteps() {
        return (warmup + block() - 1) / block() * block();
    }

    /** The timed steps, rounded up to whole blocks, at least one. */
    private int timedSteps() {
        return Math.max(1, (steps + block() - 1) / block()) * block();
    }

    /** A value given on the command line as a grid file would hold it: {@code 3} a number, {@code true} a flag. */
    static Object scalar(String text) {
        try {
            Object value = YAML.readValue(text, Object.class);
            return value instanceof Integer i ? Long.valueOf(i) : value == null || value instanceof Map
                    || value instanceof List ? text : value;
        } catch (IOException e) {
            return text;
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // a temporary file left behind is harmless
        }
    }
}
