package org.gridrun.jobs.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code grid-run} command in a JVM of its own, as a user starts it from a shell: its own H2 (bound as grid-run
 * binds it), its own pid to look up or signal. Closing it sends SIGTERM and waits.
 */
final class ChildGridRun implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;

    private ChildGridRun(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts {@code grid-run args… --workdir workdir}, its stderr merged into its stdout. */
    static ChildGridRun start(Path workdir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                GridRun.class.getName()));
        command.addAll(List.of(args));
        command.addAll(List.of("--workdir", workdir.toString()));
        return new ChildGridRun(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Reads output up to the first line that starts with {@code prefix}, and returns that line. */
    String awaitLine(String prefix) throws IOException {
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
            seen.append(line).append('\n');
        }
        throw new IllegalStateException("grid-run ended without printing '" + prefix + "'; it said:\n" + seen);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
