package org.gridrun.jobs.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.simd.Simd;
import org.gridrun.engine.train.DeviceCodecTiming;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.local.JobLauncher;
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
 * <p>With more than one method, each is measured in a JVM of its own (this one's options, as JMH forks), the copy
 * timed again there; {@code --in-process} measures them all here.
 *
 * <p>Every method is bound to the same {@link TensorLayout}: by default {@link BenchLayout#resnet18} cut to
 * {@code --size} (so PowerSGD compresses matrices and per-tensor methods see layers), or one flat vector with
 * {@code --layout flat}. The layout is named in the table's header, and on standard error with {@code --csv}, so
 * the CSV stays {@code method,gbps,ratio_to_copy} rows.
 *
 * <p>When qsgd is measured and python3 imports torch, a reference-style PyTorch QSGD ({@code bench_qsgd.py}: bucketed
 * L2 norm, {@code torch.rand} rounding, uint8 codes) encodes and decodes the same vector, with qsgd's default bucket
 * size and bits, on as many threads as the CPU backend uses; its row ({@code torch_qsgd}) gives its GB/s, its ratio
 * to the copy, and qsgd's speed over it.
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

    @Option(names = "--no-torch", description = "Skip the PyTorch QSGD measurement.")
    boolean noTorch;

    @Option(names = "--in-process", description = "Measure every method in this JVM, not each in a JVM of its own.")
    boolean inProcess;

    /** A forked measurement's output: only {@code method,gbps,ratio_to_copy,bits_per_value} rows. */
    @Option(names = "--row", hidden = true)
    boolean row;

    @Option(names = "--layout", paramLabel = "resnet18|flat", defaultValue = "resnet18",
            description = "Tensors bound to every method: ResNet-18's, cut to the size, or one flat vector "
                    + "(default: ${DEFAULT-VALUE}).")
    String layoutName;

    @Option(names = "--backend", paramLabel = "cpu|cuda", defaultValue = "cpu",
            description = "Where the gradient lives: cpu (every method, on the host) or cuda (the methods that "
                    + "encode and decode on the GPU, next to a device-to-device copy) (default: ${DEFAULT-VALUE}).")
    String backendName;

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
        if (!backendName.equals("cpu")) {
            return onDevice(out);
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
        if (row) {
            out.printf(Locale.ROOT, "copy,%.4f,1.0000,32%n", copy);
        } else if (csv) {
            out.println("method,gbps,ratio_to_copy");
            out.printf(Locale.ROOT, "copy,%.4f,1.0000%n", copy);
            spec.commandLine().getErr().println("layout: " + described);
        } else {
            out.printf(Locale.ROOT, "%d float32 values, best of %d; array copy %.3f GB/s; kernels: %s%n", size,
                    repeat, copy, Simd.describe());
            out.println("layout: " + described);
            out.printf(Locale.ROOT, "%-10s %10s %10s %12s%n", "method", "GB/s", "x copy", "bits/value");
        }
        List<String> names = Compressors.names().stream().filter(n -> methods == null || methods.contains(n))
                .toList();
        boolean fork = !inProcess && names.size() > 1;
        double qsgd = Double.NaN;
        for (String name : names) {
            double[] measured = fork ? forked(name) : measure(name, layout, v, target, copying);
            double rate = measured[0];
            double ratio = measured[1];
            if (name.equals("qsgd")) {
                qsgd = rate;
            }
            if (csv || row) {
                out.printf(Locale.ROOT, "%s,%.4f,%.4f%s%n", name, rate, ratio,
                        row ? String.format(Locale.ROOT, ",%.6f", measured[2]) : "");
            } else {
                out.printf(Locale.ROOT, "%-10s %10.3f %10.3f %12.3f%n", name, rate, ratio, measured[2]);
            }
            out.flush();
        }
        if (!Double.isNaN(qsgd) && !noTorch && !row) {
            torchQsgd(out, v, copy, qsgd);
        }
        out.flush();
        return 0;
    }

    /**
     * The methods that run on {@code --backend}'s device codec, each timed against a device-to-device copy of the same
     * floats ({@link DeviceCodecTiming}), bound to {@code --layout} as on the host.
     */
    private int onDevice(PrintWriter out) {
        List<String> capable = DeviceCodecTiming.deviceMethods();
        List<String> names = methods == null ? capable : methods;
        for (String name : names) {
            if (!capable.contains(name)) {
                throw new UserInputException(name + (Compressors.stepsOnDevice(name)
                        ? " runs its whole step on the GPU in training, not through the device codec timed here"
                        : " does not encode on the GPU with its default parameters") + "; those that do: "
                        + String.join(", ", capable));
            }
        }
        List<DeviceCodecTiming.Row> rows;
        try (Backend backend = openBackend()) {
            TensorLayout layout = layout();
            rows = DeviceCodecTiming.measure(backend, names, layout, repeat);
            if (!csv) {
                out.printf(Locale.ROOT, "%d float32 values on %s, best of %d%n", size, backend.blas(), repeat);
                out.println("layout: " + describe(layout));
                out.printf(Locale.ROOT, "%-10s %10s %10s %12s%n", "method", "GB/s", "x copy", "bits/value");
            } else {
                out.println("method,gbps,ratio_to_copy");
            }
        }
        for (DeviceCodecTiming.Row r : rows) {
            out.printf(Locale.ROOT, csv ? "%s,%.4f,%.4f%n" : "%-10s %10.3f %10.3f %12.3f%n", r.method(), r.gbps(),
                    r.ratioToCopy(), r.bitsPerValue());
        }
        out.flush();
        return 0;
    }

    private Backend openBackend() {
        try {
            return Backends.open(backendName);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UserInputException("bench compressors --backend " + backendName + ": " + e.getMessage());
        }
    }

    /** GB/s, ratio to the copies timed between its runs, and bits per value of method {@code name}, here. */
    private double[] measure(String name, TensorLayout layout, float[] v, float[] target, Runnable copying) {
        Compressor c = Compressors.create(name, Map.of(), 1).copy(0);
        c.bind(layout);
        long[] bits = new long[1];
        long[] nanos = best(() -> {
            Payload p = c.encode(v, 0, size);
            bits[0] = p.bits();
            c.decode(p, target, 0);
        }, copying);
        double rate = gbps(nanos[0]);
        return new double[] {rate, rate / gbps(nanos[1]), (double) bits[0] / size};
    }

    /**
     * {@link #measure} in a child JVM of its own (this JVM's options and class path), as JMH forks: the methods share
     * code (bucketing, packing, the random stream), and the compiler would otherwise shape that code for the methods
     * measured before, not for this one, as no training job, which runs one method, ever sees it.
     */
    private double[] forked(String name) {
        List<String> command = new ArrayList<>(List.of(JobLauncher.javaExecutable()));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), GridRun.class.getName(), "bench",
                "compressors", "--method", name, "--size", Integer.toString(size), "--repeat",
                Integer.toString(repeat), "--layout", layoutName, "--in-process", "--row", "--no-torch"));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException("the benchmark of " + name + " failed: " + printed.strip());
            }
            for (String line : printed.split("\n")) {
                String[] cells = line.strip().split(",");
                if (cells.length == 4 && cells[0].equals(name)) {
                    return new double[] {Double.parseDouble(cells[1]), Double.parseDouble(cells[2]),
                            Double.parseDouble(cells[3])};
                }
            }
            throw new IllegalStateException("the benchmark of " + name + " printed no row: " + printed.strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Measures and prints the PyTorch QSGD row, when python3 imports torch. */
    private void torchQsgd(PrintWriter out, float[] v, double copy, double qsgd) {
        TorchBench torch = TorchBench.find();
        if (torch == null) {
            if (!csv) {
                out.println("torch_qsgd: missing (python3 cannot import torch)");
            }
            return;
        }
        Map<String, Object> defaults = Compressors.create("qsgd", Map.of(), 1).config();
        int bucket = ((Number) defaults.get("bucket_size")).intValue();
        int bits = ((Number) defaults.get("bits")).intValue();
        Path file = null;
        try {
            file = Files.createTempFile("gridrun-bench-", ".f32");
            ByteBuffer bytes = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
            bytes.asFloatBuffer().put(v);
            Files.write(file, bytes.array());
            double rate = torch.qsgdGbps(file, bucket, bits, CpuBackend.threads(), repeat);
            if (csv) {
                out.printf(Locale.ROOT, "torch_qsgd,%.4f,%.4f%n", rate, rate / copy);
            } else {
                out.printf(Locale.ROOT, "%-10s %10.3f %10.3f %12s  %s, bucket %d, %d bits, %d threads; qsgd is "
                        + "%.1fx it%n", "torch_qsgd", rate, rate / copy, "8 (uint8)", torch.version(), bucket, bits,
                        CpuBackend.threads(), qsgd / rate);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a temporary file left behind
                }
            }
        }
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
