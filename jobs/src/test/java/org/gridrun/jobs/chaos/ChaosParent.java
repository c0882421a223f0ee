package org.gridrun.jobs.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.gridrun.engine.run.RunDir;
import org.gridrun.jobs.cli.GridRun;

/**
 * One {@code grid-run --grid chaos} in a JVM of its own, the parent of its trainers: what the chaos test kills,
 * interrupts and runs again. Its output goes to {@code parent-<n>.log} in the working directory.
 */
final class ChaosParent {
    private final Process process;
    private final Path log;

    private ChaosParent(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts run {@code n} of grid {@code grid} in {@code workdir} on two local jobs, with {@code path} as its
     * {@code PATH}.
     */
    static ChaosParent start(Path workdir, String grid, String path, int n) throws IOException {
        Path log = workdir.resolve("parent-" + n + ".log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                GridRun.class.getName(), "--grid", grid, "--jobs", "2", "--workdir", workdir.toString());
        builder.environment().put("PATH", path);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return new ChaosParent(builder.start(), log);
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The trainers it runs now, each with its run directory (the last argument of {@code grid-run train}). */
    List<Trainer> trainers() {
        return process.children().filter(ProcessHandle::isAlive).map(child -> lastArgument(child)
                .map(dir -> new Trainer(child, RunDir.at(Path.of(dir)))).orElse(null)).filter(t -> t != null)
                .toList();
    }

    /**
     * A child's last argument, its run directory, read from {@code /proc/PID/cmdline}: {@code ProcessHandle.Info}
     * keeps only the first 4096 bytes of a command line, and a trainer's class path under Maven is nearly that long.
     */
    private static Optional<String> lastArgument(ProcessHandle child) {
        try {
            String[] args = new String(Files.readAllBytes(Path.of("/proc", Long.toString(child.pid()), "cmdline")),
                    StandardCharsets.UTF_8).split("\0");
            return args.length > 1 ? Optional.of(args[args.length - 1]) : Optional.empty();
        } catch (IOException gone) {
            return Optional.empty();
        }
    }

    /** kill -9. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** kill -INT, as Ctrl-C in its terminal would (to the parent alone). */
    void interrupt() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-INT", String.valueOf(pid())).inheritIO().start().waitFor();
    }

    /** Waits for it to end; its exit code, or -1 when it did not end within {@code limit} (then it is killed). */
    int awaitExit(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    /** What it printed, for a failure message. */
    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** A trainer process and the run directory it trains. */
    record Trainer(ProcessHandle process, RunDir dir) {
    }
}
