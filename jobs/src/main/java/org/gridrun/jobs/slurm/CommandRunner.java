package org.gridrun.jobs.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one external command to its end, or until a timeout, and returns what it printed.
 *
 * <p>The SLURM client talks to the cluster only through this interface, so a test replaces the cluster with a
 * lambda that answers from recorded outputs.
 */
@FunctionalInterface
public interface CommandRunner {

    /**
     * Runs {@code command} with {@code environment} added to this process's environment.
     *
     * @throws SlurmException when the command cannot be started (not installed, not executable) or runs past
     *                        {@code timeout}; it is then killed
     */
    Result run(List<String> command, Map<String, String> environment, Duration timeout);

    /**
     * What a finished command printed.
     *
     * @param exitCode its exit status
     * @param stdout   its standard output
     * @param stderr   its standard error
     */
    record Result(int exitCode, String stdout, String stderr) {
        /** Whether the command exited with status 0. */
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /** Runs commands as child processes of this JVM, with standard input closed. */
    static CommandRunner processes() {
        return CommandRunner::runProcess;
    }

    private static Result runProcess(List<String> command, Map<String, String> environment, Duration timeout) {
        Path out = null;
        Path err = null;
        Process process = null;
        try {
            // Files, not pipes: a chatty command never blocks on a full pipe while we wait for it.
            out = Files.createTempFile("gridrun-cmd", ".out");
            err = Files.createTempFile("gridrun-cmd", ".err");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().putAll(environment);
            process = builder.start();
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new SlurmException(String.join(" ", command) + " did not answer within " + describe(timeout));
            }
            return new Result(process.exitValue(), read(out), read(err));
        } catch (IOException e) {
            throw new SlurmException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException("interrupted while waiting for " + command.get(0), e);
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    private static String describe(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + "s" : timeout.toMillis() + "ms";
    }

    private static String read(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a leftover temporary file is harmless
            }
        }
    }
}
