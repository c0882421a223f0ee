package org.gridrun.jobs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PyTorch's side of {@code grid-run bench train}, {@code bench compressors} and {@code bench data}: runs a shipped
 * script ({@code bench_train.py}, {@code bench_qsgd.py}, {@code bench_data.py}) with {@code python3} and reads the {@code key value} lines it
 * prints.
 *
 * <p>{@link #find()} never throws: it returns null when python3 is missing or cannot import torch (and, for
 * {@link #findVision()}, torchvision).
 */
final class TorchBench {
    private static final String TRAIN_SCRIPT = "bench_train.py";
    private static final String QSGD_SCRIPT = "bench_qsgd.py";
    private static final long TIMEOUT_MINUTES = 10;
    /** PyTorch processes a CPU step is timed in; the faster is kept. */
    static final int CPU_PROCESSES = 2;

    /**
     * The interpreters tried in order: the one on the PATH, then Debian's, which has {@code python3-torch}'s torch
     * when the PATH leads to another (pyenv, a virtual environment).
     */
    private static final List<String> PYTHONS = List.of("python3", "/usr/bin/python3");

    private final String python;
    private final String version;

    private TorchBench(String python, String version) {
        this.python = python;
        this.version = version;
    }

    /** PyTorch with the first interpreter that can {@code import torch}, else null. */
    static TorchBench find() {
        return find(false);
    }

    /**
     * PyTorch with the first interpreter that can {@code import torch} and, when {@code cuda} is set, also sees a
     * GPU ({@code torch.cuda.is_available()}); else null.
     */
    static TorchBench find(boolean cuda) {
        String probe = cuda ? "import torch; assert torch.cuda.is_available(); print(torch.__version__ + ' on ' + "
                + "torch.cuda.get_device_name(0))" : "import torch; print(torch.__version__)";
        return find(probe, "PyTorch ");
    }

    /** torchvision and Pillow with the first interpreter that can import them and torch, else null. */
    static TorchBench findVision() {
        return find("import torch, torchvision, PIL; print(torchvision.__version__ + ', Pillow ' + PIL.__version__)",
                "torchvision ");
    }

    /** The first interpreter whose {@code probe} prints a line, named {@code prefix} + that line; else null. */
    private static TorchBench find(String probe, String prefix) {
        for (String python : PYTHONS) {
            try {
                String[] lines = run(List.of(python, "-c", probe), 1).strip().split("\n");
                String last = lines[lines.length - 1].strip();
                if (!last.isEmpty()) {
                    return new TorchBench(python, prefix + last + " (" + python + ")");
                }
            } catch (IOException | RuntimeException e) {
                // this interpreter cannot import them; try the next
            }
        }
        return null;
    }

    String version() {
        return version;
    }

    /** The interpreter that imports torch. */
    String python() {
        return python;
    }

    /**
     * The fastest and median milliseconds PyTorch takes for one training step of {@code model} on {@code device}: on
     * the CPU, of the process (of {@value #CPU_PROCESSES}) with the lower median. One process's OpenMP threads may
     * land badly for its whole life (a 2-thread mlp ran at 4.4 ms a step in some processes and 19 ms in others on a
     * shared 2-core machine), and the comparison gives PyTorch its best. Steps are timed in blocks of {@code block}
     * with one synchronisation a block ({@link StepTimes#measure}).
     */
    StepTimes times(String model, int batch, int threads, int warmup, int steps, String device, int block) {
        StepTimes best = null;
        for (int i = 0; i < (device.equals("cpu") ? CPU_PROCESSES : 1); i++) {
            StepTimes t = timesOnce(model, batch, threads, warmup, steps, device, block);
            if (best == null || t.median() < best.median()) {
                best = t;
            }
        }
        return best;
    }

    private StepTimes timesOnce(String model, int batch, int threads, int warmup, int steps, String device,
                                int block) {
        Map<String, String> printed = runScript(TRAIN_SCRIPT, List.of(model, Integer.toString(batch),
                Integer.toString(threads), Integer.toString(warmup), Integer.toString(steps), device,
                Integer.toString(block)), threads);
        String what = "PyTorch benchmark of " + model;
        return new StepTimes(Double.parseDouble(value(printed, "ms_min", what)),
                Double.parseDouble(value(printed, "ms_median", what)));
    }

    /**
     * The GB/s (4 bytes per value) of a reference-style PyTorch QSGD encode + decode ({@code bench_qsgd.py}) of the
     * float32 values in {@code vector}, best of {@code repeat}, on {@code threads} threads.
     */
    double qsgdGbps(Path vector, int bucket, int bits, int threads, int repeat) {
        Map<String, String> printed = runScript(QSGD_SCRIPT, List.of(vector.toString(), Integer.toString(bucket),
                Integer.toString(bits), Integer.toString(threads), Integer.toString(repeat)), threads);
        return Double.parseDouble(value(printed, "gbps", "PyTorch QSGD benchmark"));
    }

    /**
     * Runs the shipped {@code script} with {@code args} and returns what it printed as {@code key value} lines, key
     * to value (other lines are dropped); fails naming the script, with its output, when it fails.
     */
    Map<String, String> runScript(String script, List<String> args, int threads) {
        try {
            Path file = Files.createTempFile("gridrun-" + script.replace(".py", "-"), ".py");
            try (InputStream in = TorchBench.class.getResourceAsStream(script)) {
                Files.write(file, in.readAllBytes());
                List<String> command = new ArrayList<>(List.of(python, file.toString()));
                command.addAll(args);
                Map<String, String> values = new LinkedHashMap<>();
                for (String line : run(command, threads).split("\n")) {
                    int space = line.indexOf(' ');
                    if (space > 0) {
                        values.put(line.substring(0, space), line.substring(space + 1).strip());
                    }
                }
                return values;
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new IllegalStateException(script + " failed: " + e.getMessage(), e);
        }
    }

    /** The value printed for {@code key}, failing with {@code what} and everything printed when it is missing. */
    static String value(Map<String, String> printed, String key, String what) {
        String value = printed.get(key);
        if (value == null) {
            throw new IllegalStateException(what + " printed no " + key + " line: " + printed);
        }
        return value;
    }

    /**
     * Runs {@code command} and returns its standard output; fails on a non-zero exit, with its output. The child's
     * OpenBLAS and OpenMP get {@code threads} threads, as PyTorch's own pool does, whatever the CPU backend's BLAS was
     * given (grid-run sets {@code OPENBLAS_NUM_THREADS=1} for its own).
     */
    private static String run(List<String> command, int threads) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("OPENBLAS_NUM_THREADS", Integer.toString(threads));
        builder.environment().put("OMP_NUM_THREADS", Integer.toString(threads));
        Process p = builder.start();
        try {
            String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command.subList(0, 2)) + " failed: " + printed.strip());
            }
            return printed;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
