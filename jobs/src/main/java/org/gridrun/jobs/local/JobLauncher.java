package org.gridrun.jobs.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.run.RunDir;

/**
 * Starts one job, {@code grid-run train <run-dir>}, as a child JVM running the same jar (as JMH forks do).
 *
 * <p>The child's output is appended to the run directory's {@code log}. Native BLAS is held to one thread per job,
 * because the pool already runs one job per core.
 */
public final class JobLauncher {
    static final String MAIN_CLASS = "org.gridrun.jobs.cli.GridRun";

    /**
     * JVM options of every job: the Vector API lets netlib's Java BLAS use SIMD when no native BLAS is installed
     * (measured 16 instead of 26 ms per quick-start step); the JVM notes the incubator module once in the log.
     */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("--add-modules", "jdk.incubator.vector");

    /** The CPU backend's convolution path ({@code im2col} keeps oneDNN off), passed on to each job when set here. */
    static final String CONV_PROPERTY = "gridrun.conv";

    private final List<String> jvmOptions;

    public JobLauncher(List<String> jvmOptions) {
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /** Starts the job of {@code dir}. */
    public Process start(RunDir dir) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(dir));
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.logFile().toFile()));
        builder.environment().put("OPENBLAS_NUM_THREADS", "1");
        // one OpenMP thread per oneDNN call: the CPU backend splits its convolutions over its own threads
        builder.environment().put("OMP_NUM_THREADS", "1");
        builder.directory(dir.path().toFile());
        return builder.start();
    }

    /** The full command line of the job of {@code dir}. */
    public List<String> command(RunDir dir) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        String conv = System.getProperty(CONV_PROPERTY);
        if (conv != null) {
            command.add("-D" + CONV_PROPERTY + "=" + conv);
        }
        command.addAll(trainArguments(jvmOptions, System.getProperty("java.class.path")));
        command.add(dir.path().toString());
        return command;
    }

    /** This JVM's java executable, which jobs run with. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The arguments after {@code java} that train one run directory, which follows them. */
    public static List<String> trainArguments(List<String> jvmOptions, String classpath) {
        List<String> arguments = new ArrayList<>(jvmOptions);
        arguments.add("-Djava.awt.headless=true");
        arguments.add("-cp");
        arguments.add(classpath);
        arguments.add(MAIN_CLASS);
        arguments.add("train");
        return arguments;
    }
}
