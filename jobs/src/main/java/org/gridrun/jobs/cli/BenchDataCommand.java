package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridrun.engine.data.Batches;
import org.gridrun.engine.data.DataOptions;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.data.DataThreads;
import org.gridrun.engine.data.ImageData;
import org.gridrun.engine.data.ImageDecoders;
import org.gridrun.jobs.UserInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run bench data}: images per second of ImageNet's training input pipeline (read, decode, random resized
 * crop, flip, normalise, assemble batches) through gridrun's {@link Batches} on T data threads, next to
 * torchvision's {@code ImageFolder} and {@code DataLoader} with T worker processes on the same files with the same
 * transforms, measured in the same run when python3 can import torchvision.
 *
 * <p>The two are measured in alternating rounds (gridrun, then torchvision, {@code --rounds} times) and each figure
 * is the median of its rounds, so a machine whose load changes during the run tilts neither side much. Beside the
 * wall-clock rate each reports images per CPU-second of all its threads and processes over the timed batches, the
 * steadier figure on a busy machine.
 */
@Command(name = "data", mixinStandardHelpOptions = true,
        description = "Images per second of ImageNet's training input pipeline (decode, RandomResizedCrop 224, "
                + "flip, normalise, batch) through gridrun's batches on T data threads, next to torchvision's "
                + "ImageFolder + DataLoader with T workers on the same files and transforms, measured in the same run "
                + "when python3 can import torchvision.")
final class BenchDataCommand implements Callable<Integer> {
    private static final String SCRIPT = "bench_data.py";

    @Option(names = "--dataset", paramLabel = "NAME", defaultValue = "imagenet",
            description = "A data set decoded from files (default: ${DEFAULT-VALUE}, the only one).")
    String dataset;

    @Option(names = "--dir", paramLabel = "D", required = true,
            description = "Its directory, as data_dir: D/train/<class>/*.JPEG and D/val/<class>/*.JPEG (also "
                    + "beneath D/imagenet or D/ILSVRC2012).")
    String dir;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "2",
            description = "Data threads for gridrun, worker processes for torchvision (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "64",
            description = "Images per batch (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--batches", paramLabel = "N", defaultValue = "20",
            description = "Batches timed (default: ${DEFAULT-VALUE}).")
    int batches;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "5",
            description = "Batches drawn untimed first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "3",
            description = "Alternating rounds of both measurements; medians are printed (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--no-torch", description = "Skip the torchvision measurement.")
    boolean noTorch;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        validate();
        ImageData train = DataSets.load(dataset, dir, new DataOptions(threads, false)).train();
        if (!train.decodesOnDemand()) {
            throw new UserInputException("--dataset must be a data set decoded from files (imagenet); '" + dataset
                    + "' is held in memory");
        }
        Path root = DataSets.directory(dataset, dir);
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "%s training view (RandomResizedCrop %d, flip, normalise) of %s: %d images in %d "
                + "classes; batch %d, %d thread%s, %d batches timed after %d warm-up, median of %d alternating "
                + "round%s%n", dataset, train.shape().height(), root.resolve("train"), train.size(), train.classes(),
                batch, threads, threads == 1 ? "" : "s", batches, warmup, rounds, rounds == 1 ? "" : "s");
        out.println("gridrun decodes with " + ImageDecoders.describe());
        out.flush();
        TorchBench torch = noTorch ? null : TorchBench.findVision();
        if (torch == null) {
            out.println("torchvision: " + (noTorch ? "skipped (--no-torch)" : "missing (python3 cannot import "
                    + "torch, torchvision and PIL; install python3-torchvision for the comparison)"));
        }
        List<Rate> gridrun = new ArrayList<>();
        List<Map<String, String>> torchvision = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            gridrun.add(measure(train));
            if (torch != null) {
                torchvision.add(torch.runScript(SCRIPT, List.of(root.toString(), Integer.toString(threads),
                        Integer.toString(batch), Integer.toString(warmup), Integer.toString(batches)), threads));
            }
        }
        table(out, Rate.median(gridrun), torch, torchvision);
        return 0;
    }

    /** Prints the decoder line of torchvision's runs, when there are any, and the table of median rates. */
    private void table(PrintWriter out, Rate gridrun, TorchBench torch, List<Map<String, String>> torchvision) {
        Rate theirs = new Rate(Double.NaN, Double.NaN);
        if (!torchvision.isEmpty()) {
            out.println(torch.version() + " decodes with " + TorchBench.value(torchvision.get(0), "decoder", SCRIPT));
            List<Rate> rates = new ArrayList<>();
            for (Map<String, String> printed : torchvision) {
                rates.add(new Rate(number(printed, "images_per_second"), number(printed, "images_per_cpu_second")));
            }
            theirs = Rate.median(rates);
        }
        out.printf(Locale.ROOT, "%-12s %10s %16s %6s %13s %10s%n", "pipeline", "images/s", "images/s/thread",
                "ratio", "images/cpu-s", "cpu ratio");
        row(out, "gridrun", gridrun, theirs);
        if (!torchvision.isEmpty()) {
            row(out, "torchvision", theirs, theirs);
        }
        out.flush();
    }

    private void validate() {
        if (!DataSets.names().contains(dataset)) {
            throw new UserInputException("--dataset must be one of " + DataSets.names() + ", found '" + dataset
                    + "'");
        }
        if (threads < 1 || batch < 1 || batches < 1 || rounds < 1 || warmup < 0) {
            throw new UserInputException("--threads, --batch, --batches and --rounds must be positive and --warmup "
                    + "not negative, found " + threads + ", " + batch + ", " + batches + ", " + rounds + ", "
                    + warmup);
        }
    }

    private void row(PrintWriter out, String name, Rate rate, Rate reference) {
        out.printf(Locale.ROOT, "%-12s %10.1f %16.1f %6s %13s %10s%n", name, rate.perSecond,
                rate.perSecond / threads, format("%.2f", rate.perSecond / reference.perSecond),
                format("%.1f", rate.perCpuSecond), format("%.2f", rate.perCpuSecond / reference.perCpuSecond));
    }

    private static String format(String format, double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value);
    }

    /** A figure the script printed; {@code nan} (Python's spelling) is NaN. */
    private static double number(Map<String, String> printed, String key) {
        String value = TorchBench.value(printed, key, SCRIPT);
        return value.equalsIgnoreCase("nan") ? Double.NaN : Double.parseDouble(value);
    }

    /**
     * Images per second through {@link Batches} on {@code threads} data threads after {@code warmup} batches, and
     * per CPU-second of the whole process over the same batches (NaN where the JVM does not tell or the batches
     * ran within one tick of the process clock).
     */
    private Rate measure(ImageData train) {
        float[] x = new float[batch * train.features()];
        float[] y = new float[batch];
        try (DataThreads pool = DataThreads.of(threads);
             Batches stream = new Batches(train, batch, 1, 0, pool)) {
            for (int i = 0; i < warmup; i++) {
                stream.next(x, y);
            }
            long cpu = BenchIngestCommand.processCpuNanos();
            long start = System.nanoTime();
            for (int i = 0; i < batches; i++) {
                stream.next(x, y);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long cpuNanos = cpu < 0 ? 0 : BenchIngestCommand.processCpuNanos() - cpu;
            // The process clock ticks coarsely (10 ms on some kernels): a run shorter than a tick has no CPU rate.
            double cpuSeconds = cpuNanos > 0 ? cpuNanos / 1e9 : Double.NaN;
            double images = (double) batches * batch;
            return new Rate(images / seconds, images / cpuSeconds);
        }
    }

    /** Images per wall-clock second and per CPU-second of one measurement. */
    private record Rate(double perSecond, double perCpuSecond) {
        static Rate median(List<Rate> rates) {
            return new Rate(median(rates.stream().mapToDouble(Rate::perSecond).toArray()),
                    median(rates.stream().mapToDouble(Rate::perCpuSecond).toArray()));
        }

        private static double median(double[] values) {
            Arrays.sort(values);
            int mid = values.length / 2;
            return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
        }
    }
}
