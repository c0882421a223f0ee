package org.gridrun.jobs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * PyTorch's side of {@code grid-run bench train}: runs the shipped {@code bench_train.py} with {@code python3} and
 * reads the milliseconds per step it prints.
 *
 * <p>{@link #find()} never throws: it returns null when python3 is missing or cannot import torch.
 */
final class TorchBench {
    private static final String SCRIPT = "bench_train.py";
    private static final long TIMEOUT_MINUTES = 10;

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
        for (String python : PYTHONS) {
            try {
                String[] lines = run(List.of(python, "-c", probe), 1).strip().split("\n");
                String last = lines[lines.length - 1].strip();
                if (!last.isEmpty()) {
                    return new TorchBench(python, "PyTorch " + last + " (" + python + ")");
                }
            } catch (IOException | RuntimeException e) {
                // this interpreter cannot import torch; try the next
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

    /** The median milliseconds PyTorch takes for one training step of {@code model} on {@code device}. */
    double millis(String model, int batch, int threads, int warmup, int steps, String device) {
        try {
            Path script = Files.createTempFile("gridrun-bench-train", ".py");
            try (InputStream in = TorchBench.class.getResourceAsStream(SCRIPT)) {
                Files.write(script, in.readAllBytes());
                String printed = run(List.of(python, script.toString(), model, Integer.toString(batch),
                        Integer.toString(threads), Integer.toString(warmup), Integer.toString(steps), device),
                        threads);
                for (String line : printed.split("\n")) {
                    if (line.startsWith("ms_per_step ")) {
                        return Double.parseDouble(line.substring("ms_per_step ".length()).strip());
                    }
                }
                throw new IllegalStateException("PyTorch benchmark printed no ms_per_step line: " + printed);
            } finally {
                Files.deleteIfExists(script);
            }
        } catch (IOException e) {
            throw new IllegalStateException("PyTorch benchmark of " + model + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code command} and returns its standard output; fails on a non-zero exit, with its output. The child's
     * OpenBLAS gets {@code threads} threads, as PyTorch's own pool does, whatever the CPU backend's BLAS was given.
     */
    private static String run(List<String> command, int threads) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("OPENBLAS_NUM_THREADS", Integer.toString(threads));
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
