package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
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
 * transforms, measured in the same run (gridrun first) when python3 can import torchvision.
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
                + "classes; batch %d, %d thread%s, %d batches timed after %d warm-up%n", dataset,
                train.shape().height(), root.resolve("train"), train.size(), train.classes(), batch, threads,
                threads == 1 ? "" : "s", batches, warmup);
        out.println("gridrun decodes with " + ImageDecoders.describe());
        out.flush();
        double gridrun = imagesPerSecond(train);
        TorchBench torch = noTorch ? null : TorchBench.findVision();
        double torchvision = Double.NaN;
        if (torch == null) {
            out.println("torchvision: " + (noTorch ? "skipped (--no-torch)" : "missing (python3 cannot import "
                    + "torch, torchvision and PIL; install python3-torchvision for the comparison)"));
        } else {
            Map<String, String> printed = torch.runScript(SCRIPT, List.of(root.toString(), Integer.toString(threads),
                    Integer.toString(batch), Integer.toString(warmup), Integer.toString(batches)), threads);
            torchvision = Double.parseDouble(TorchBench.value(printed, "images_per_second", SCRIPT));
            out.println(torch.version() + " decodes with " + TorchBench.value(printed, "decoder", SCRIPT));
        }
        out.printf(Locale.ROOT, "%-12s %10s %16s %15s%n", "pipeline", "images/s", "images/s/thread",
                "vs torchvision");
        row(out, "gridrun", gridrun, gridrun / torchvision);
        if (!Double.isNaN(torchvision)) {
            row(out, "torchvision", torchvision, 1.0);
        }
        out.flush();
        return 0;
    }

    private void validate() {
        if (!DataSets.names().contains(dataset)) {
            throw new UserInputException("--dataset must be one of " + DataSets.names() + ", found '" + dataset
                    + "'");
        }
        if (threads < 1 || batch < 1 || batches < 1 || warmup < 0) {
            throw new UserInputException("--threads, --batch and --batches must be positive and --warmup not "
                    + "negative, found " + threads + ", " + batch + ", " + batches + ", " + warmup);
        }
    }

    private void row(PrintWriter out, String name, double perSecond, double ratio) {
        out.printf(Locale.ROOT, "%-12s %10.1f %16.1f %15s%n", name, perSecond, perSecond / threads,
                Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2f", ratio));
    }

    /** Images per second through {@link Batches} on {@code threads} data threads, after {@code warmup} batches. */
    private double imagesPerSecond(ImageData train) {
        float[] x = new float[batch * train.features()];
        float[] y = new float[batch];
        try (DataThreads pool = DataThreads.of(threads);
             Batches stream = new Batches(train, batch, 1, 0, pool)) {
            for (int i = 0; i < warmup; i++) {
                stream.next(x, y);
            }
            long start = System.nanoTime();
            for (int i = 0; i < batches; i++) {
                stream.next(x, y);
            }
            return (double) batches * batch / ((System.nanoTime() - start) / 1e9);
        }
    }
}
