package org.gridrun.jobs.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridrun.engine.backend.GpuSlot;
import org.gridrun.engine.run.RunDir;

/**
 * Starts one job, {@code grid-run train <run-dir>}, as a child JVM running the same jar (as JMH forks do).
 *
 * <p>The child's output is appended to the run directory's {@code log}. Native BLAS is held to one thread per job,
 * because the pool already runs one job per core. Each job's heap may grow to its share of three quarters of the
 * memory; {@code $GRIDRUN_JAVA_OPTS} (e.g. {@code -Xmx48g}) comes last and overrides.
 */
public final class JobLauncher implements JobStarter {
    static final String MAIN_CLASS = "org.gridrun.jobs.cli.GridRun";

    /**
     * JVM options of every job: the Vector API lets netlib's Java BLAS use SIMD when no native BLAS is installed
     * (measured 16 instead of 26 ms per quick-start step); the JVM notes the incubator module once in the log.
     */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("--add-modules", "jdk.incubator.vector");
    /**
     * The share of the memory the JVM sees (the machine's, or a SLURM allocation's cgroup limit) that the jobs
     * sharing it may give their heaps together: the JVM's own default, a quarter, leaves an ImageNet ResNet short on
     * a node whose memory was allocated to that one job.
     */
    static final double HEAP_SHARE_PERCENT = 75;
    /** The environment variable whose JVM options (split on white space) every job gets last, so they win. */
    public static final String USER_OPTIONS = "GRIDRUN_JAVA_OPTS";

    /**
     * The prefix of the system properties that steer gridrun's paths ({@code gridrun.conv=im2col},
     * {@code gridrun.blas=bundled}, {@code gridrun.simd=false}), which each job gets as set here.
     */
    static final String PROPERTY_PREFIX = "gridrun.";

    private final List<String> jvmOptions;

    public JobLauncher(List<String> jvmOptions) {
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * The JVM options of jobs of which {@code sharing} run at once on the same memory: {@link #DEFAULT_JVM_OPTIONS}
     * and each one's share of {@link #HEAP_SHARE_PERCENT} as its maximum heap.
     */
    public static List<String> jvmOptions(int sharing) {
        List<String> options = new ArrayList<>(DEFAULT_JVM_OPTIONS);
        options.add(String.format(Locale.ROOT, "-XX:MaxRAMPercentage=%.1f", HEAP_SHARE_PERCENT / Math.max(1, sharing)));
        return options;
    }

    /** {@code -Dgridrun.…=…} for each of this JVM's {@link #PROPERTY_PREFIX} properties, in name order. */
    static List<String> inheritedProperties() {
        return System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith(PROPERTY_PREFIX))
                .sorted().map(k -> "-D" + k + "=" + System.getProperty(k)).toList();
    }

    /** The options of {@link #USER_OPTIONS} in {@code environment}, empty when it is unset or blank. */
    static List<String> userOptions(Map<String, String> environment) {
        String text = environment.getOrDefault(USER_OPTIONS, "").strip();
        return text.isEmpty() ? List.of() : List.of(text.split("\\s+"));
    }

    /** Starts the job of {@code dir} in pool slot {@code slot}, which picks its GPU ({@link GpuSlot}). */
    @Override
    public Process start(RunDir dir, int slot) throws IOException {
        return processBuilder(dir, slot).start();
    }

    /** How {@link #start} starts the job of {@code dir} in pool slot {@code slot}. */
    ProcessBuilder processBuilder(RunDir dir, int slot) {
        ProcessBuilder builder = new ProcessBuilder(command(dir));
        builder.environment().put(GpuSlot.VARIABLE, String.valueOf(slot));
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.logFile().toFile()));
        builder.environment().put("OPENBLAS_NUM_THREADS", "1");
        // one OpenMP thread per oneDNN call: the CPU backend splits its convolutions over its own threads
        builder.environment().put("OMP_NUM_THREADS", "1");
        builder.directory(dir.path().toFile());
        return builder;
    }

    /** The full command line of the job of {@code dir}. */
    public List<String> command(RunDir dir) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        List<String> options = new ArrayList<>(jvmOptions);
        options.addAll(inheritedProperties());
        options.addAll(userOptions(System.getenv()));
        command.addAll(trainArguments(options, classpath()));
        command.add(dir.path().toString());
        return command;
    }

    /**
     * This JVM's class path with every entry made absolute: jobs start in their run directory (local) or wherever the
     * batch system puts them, where {@code java -jar jobs/target/grid-run.jar}'s relative path names nothing.
     */
    public static String classpath() {
        String[] entries = System.getProperty("java.class.path").split(File.pathSeparator, -1);
        List<String> absolute = new ArrayList<>();
        for (String entry : entries) {
            absolute.add(entry.isEmpty() ? entry : Path.of(entry).toAbsolutePath().normalize().toString());
        }
        return String.join(File.pathSeparator, absolute);
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
