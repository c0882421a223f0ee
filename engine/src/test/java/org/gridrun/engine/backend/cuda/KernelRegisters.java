package org.gridrun.engine.backend.cuda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The registers each kernel takes a thread on a Hopper GPU, as ptxas assembles the committed PTX, so that the emulator
 * refuses a block the GPU would refuse: a multiprocessor gives a block at most 65,536 registers, allocated a warp at a
 * time in units of 256, and a launch asking more fails with {@code CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES}. The host
 * emulator has no registers, so without this a launcher whose blocks are too large for its kernel passes every test
 * here and fails its first launch on a GPU.
 *
 * <p>Without ptxas on the PATH nothing is checked. ptxas's findings are kept under {@code engine/target/cuda-emu}
 * with a digest of the PTX they came from, so each build assembles the modules once (about 20 s).
 */
final class KernelRegisters {
    /** The GPU the counts are for (the machines the GPU checks run on). */
    static final String ARCH = "sm_90";
    static final int REGISTERS_PER_BLOCK = 65_536;
    private static final Pattern ENTRY = Pattern.compile("Compiling entry function '(\\w+)'");
    private static final Pattern USED = Pattern.compile("Used (\\d+) registers");
    private static Map<String, Integer> table;

    private KernelRegisters() {
    }

    /**
     * Fails as a GPU would when a block of {@code threads} threads needs more registers than a multiprocessor gives
     * one block.
     *
     * @throws IllegalStateException naming the kernel, its registers and the block's need
     */
    static void check(String kernel, long threads) {
        Integer registers = table().get(kernel);
        if (registers == null) {
            return;
        }
        long need = blockRegisters(registers, threads);
        if (need > REGISTERS_PER_BLOCK) {
            throw new IllegalStateException(kernel + ": a block of " + threads + " threads needs " + need
                    + " registers (" + registers + " a thread on " + ARCH + ", by ptxas), more than the "
                    + REGISTERS_PER_BLOCK + " a multiprocessor gives a block: a GPU refuses the launch "
                    + "(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)");
        }
    }

    /** The registers {@code kernel} takes a thread on {@link #ARCH}; empty without ptxas or for no such kernel. */
    static OptionalInt registers(String kernel) {
        Integer registers = table().get(kernel);
        return registers == null ? OptionalInt.empty() : OptionalInt.of(registers);
    }

    /** The registers a block takes: each warp's thread count rounded up to 8, times 32, rounded up to 256. */
    static long blockRegisters(int registersPerThread, long threads) {
        long perWarp = (32L * ((registersPerThread + 7) / 8 * 8) + 255) / 256 * 256;
        return (threads + 31) / 32 * perWarp;
    }

    /** ptxas's output for one module: {@code -v} for {@code arch}, the cubin written to {@code cubin}. */
    static String assemble(Path ptx, String arch, Path cubin) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ptxas", "-arch=" + arch, "-v", "-o", cubin.toString(), ptx.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("ptxas took more than 5 minutes on " + ptx);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("ptxas failed on " + ptx + " for " + arch + ": " + log);
        }
        return log;
    }

    /** Each kernel's registers in ptxas's {@code -v} output. */
    static Map<String, Integer> parse(String log) {
        Map<String, Integer> found = new HashMap<>();
        String kernel = null;
        for (String line : log.lines().toList()) {
            Matcher entry = ENTRY.matcher(line);
            if (entry.find()) {
                kernel = entry.group(1);
            }
            Matcher used = USED.matcher(line);
            if (used.find() && kernel != null) {
                found.put(kernel, Integer.parseInt(used.group(1)));
            }
        }
        return found;
    }

    /** Runs ptxas now, when the table is not known yet (it takes about 20 s without a kept copy). */
    static void prepare() {
        table();
    }

    private static synchronized Map<String, Integer> table() {
        if (table == null) {
            table = PtxTest.onPath("ptxas") ? load() : Map.of();
        }
        return table;
    }

    private static Map<String, Integer> load() {
        Path modules = PtxTest.ROOT.resolve("engine/src/main/resources/org/gridrun/engine/backend/cuda");
        Path cache = PtxTest.ROOT.resolve("engine/target/cuda-emu/registers-" + ARCH + ".txt");
        try {
            List<Path> ptx;
            try (Stream<Path> files = Files.list(modules)) {
                ptx = files.filter(f -> f.toString().endsWith(".ptx")).sorted().toList();
            }
            String digest = EmulatedGpu.digest(PtxTest.ROOT, ptx);
            if (Files.isRegularFile(cache)) {
                List<String> lines = Files.readAllLines(cache);
                if (!lines.isEmpty() && lines.get(0).equals(digest)) {
                    Map<String, Integer> kept = new HashMap<>();
                    for (String line : lines.subList(1, lines.size())) {
                        String[] fields = line.split(" ");
                        kept.put(fields[0], Integer.parseInt(fields[1]));
                    }
                    return kept;
                }
            }
            Map<String, Integer> found = new HashMap<>();
            Path cubin = Files.createTempFile("gridrun-registers", ".cubin");
            try {
                for (Path module : ptx) {
                    found.putAll(parse(assemble(module, ARCH, cubin)));
                }
            } finally {
                Files.deleteIfExists(cubin);
            }
            StringBuilder text = new StringBuilder(digest).append('\n');
            found.forEach((kernel, registers) -> text.append(kernel).append(' ').append(registers).append('\n'));
            Files.createDirectories(cache.getParent());
            Path written = Files.createTempFile(cache.getParent(), "registers", ".txt");
            Files.writeString(written, text);
            Files.move(written, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while ptxas ran", e);
        }
    }
}
