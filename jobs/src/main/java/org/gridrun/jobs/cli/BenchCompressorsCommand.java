package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.CompressorProvider;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.jobs.UserInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run bench compressors}: encode + decode throughput of every registered method with its default
 * parameters on one Gaussian vector, next to a plain array copy of the same vector measured in the same run.
 *
 * <p>The copy is one {@code System.arraycopy} on one thread: memory-bound, so it tracks what the machine can move
 * at the moment. Every timing comes after {@value #WARM_UPS} untimed runs (the first mostly runs interpreted and
 * on-stack-replaced code) and is the best of {@code --repeat}. A method's ratio is to the copies timed between its
 * own repetitions, so load from other processes that comes and goes during a long run slows both sides of a ratio
 * alike; the copy row is the copy timed before any method.
 *
 * <p>Every method is bound to the same {@link TensorLayout}: by default {@link BenchLayout#resnet18} cut to
 * {@code --size} (so PowerSGD compresses matrices and per-tensor methods see layers), or one flat vector with
 * {@code --layout flat}. The layout is named in the table's header, and on standard error with {@code --csv}, so
 * the CSV stays {@code method,gbps,ratio_to_copy} rows.
 */
@Command(name = "compressors", mixinStandardHelpOptions = true,
        description = "Encode+decode throughput (GB/s of float32 input) of every compressor, with its default "
                + "parameters, next to a plain array copy measured in the same run.")
final class BenchCompressorsCommand implements Callable<Integer> {
    @Option(names = "--size", paramLabel = "N", defaultValue = "11000000",
            description = "Values in the vector (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "5",
            description = "Timed repetitions after two warm-ups; the best is reported (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--method", paramLabel = "NAME", description = "Only these methods; repeatable.")
    List<String> methods;

    @Option(names = "--csv", description = "Print method,gbps,ratio_to_copy rows.")
    boolean csv;

    @Option(names = "--layout", paramLabel = "resnet18|flat", defaultValue = "resnet18",
            description = "Tensors bound to every method: ResNet-18's, cut to the size, or one flat vector "
                    + "(default: ${DEFAULT-VALUE}).")
    String layoutName;

    /** Untimed runs before timing anything. */
    static final int WARM_UPS = 2;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (size < 1 || repeat < 1) {
            throw new UserInputException("--size and --repeat must be positive, found " + size + " and " + repeat);
        }
        TensorLayout layout = layout();
        String described = describe(layout);
        float[] v = new float[size];
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < size; i++) {
            v[i] = (float) random.nextGaussian();
        }
        float[] target = new float[size];
        Runnable copying = () -> System.arraycopy(v, 0, target, 0, size);
        double copy = gbps(best(copying, null)[0]);
        if (csv) {
            out.println("method,gbps,ratio_to_copy");
            out.printf(Locale.ROOT, "copy,%.4f,1.0000%n", copy);
            spec.commandLine().getErr().println("layout: " + described);
        } else {
            out.printf(Locale.ROOT, "%d float32 values, best of %d; array copy %.3f GB/s%n", size, repeat, copy);
            out.println("layout: " + described);
            out.printf(Locale.ROOT, "%-10s %10s %10s %12s%n", "method", "GB/s", "x copy", "bits/value");
        }
        for (CompressorProvider provider : Compressors.providers()) {
            if (methods != null && !methods.contains(provider.name())) {
                continue;
            }
            Compressor c = Compressors.create(provider.name(), Map.of(), 1).copy(0);
            c.bind(layout);
            long[] bits = new long[1];
            long[] nanos = best(() -> {
                Payload p = c.encode(v, 0, size);
                bits[0] = p.bits();
                c.decode(p, target, 0);
            }, copying);
            double rate = gbps(nanos[0]);
            double ratio = rate / gbps(nanos[1]);
            if (csv) {
                out.printf(Locale.ROOT, "%s,%.4f,%.4f%n", provider.name(), rate, ratio);
            } else {
                out.printf(Locale.ROOT, "%-10s %10.3f %10.3f %12.3f%n", provider.name(), rate, ratio,
                        (double) bits[0] / size);
            }
            out.flush();
        }
        out.flush();
        return 0;
    }

    private TensorLayout layout() {
        switch (layoutName) {
            case "resnet18":
                return BenchLayout.resnet18(size);
            case "flat":
                return TensorLayout.flat(size);
            default:
                throw new UserInputException("--layout must be resnet18 or flat, found '" + layoutName + "'");
        }
    }

    /** The layout's name, tensor count and largest matrix, for the output's header. */
    private String describe(TensorLayout layout) {
        int matrices = 0;
        TensorLayout.Tensor largest = layout.tensors().get(0);
        for (TensorLayout.Tensor t : layout.tensors()) {
            if (t.shape().length > 1) {
                matrices++;
            }
            if (t.size() > largest.size()) {
                largest = t;
            }
        }
        return String.format(Locale.ROOT, "%s, %d tensors (%d matrices), largest %s [%d x %d]", layoutName,
                layout.tensors().size(), matrices, largest.name(), largest.rows(), largest.columns());
    }

    /**
     * The best time of {@code work} over {@code repeat} timed runs after the warm-ups, and, when {@code baseline} is
     * not null, the best time of {@code baseline} run (also warmed up) just before each of them.
     */
    private long[] best(Runnable work, Runnable baseline) {
        for (int w = 0; w < WARM_UPS; w++) {
            work.run();
        }
        long[] best = {Long.MAX_VALUE, Long.MAX_VALUE};
        for (int r = 0; r < repeat; r++) {
            if (baseline != null) {
                best[1] = Math.min(best[1], time(baseline));
            }
            best[0] = Math.min(best[0], time(work));
        }
        return best;
    }

    private static long time(Runnable work) {
        long t = System.nanoTime();
        work.run();
        return System.nanoTime() - t;
    }

    private double gbps(long nanos) {
        return 4.0 * size / nanos;
    }
}
