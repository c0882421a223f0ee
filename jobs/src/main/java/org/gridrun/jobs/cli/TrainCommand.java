package org.gridrun.jobs.cli;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.train.StopSignal;
import org.gridrun.engine.train.TrainJob;
import org.gridrun.engine.train.TrainListener;
import org.gridrun.engine.train.TrainResult;
import org.gridrun.jobs.GitProvenance;
import org.gridrun.jobs.TrainerLock;
import org.gridrun.jobs.UserInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.jobs.local.Stager;
import org.gridrun.jobs.slurm.ExperimentJson;

/**
 * {@code grid-run train RUN_DIR}: what one job executes; it needs nothing but its run directory and the jar.
 *
 * <p>It takes the run directory's {@link TrainerLock} (another trainer holding it: exit {@value TrainerLock#HELD_EXIT},
 * nothing written), records RUNNING with its pid (and, when the directory holds a checkpoint of its experiment, the
 * step it resumes from), trains, and records COMPLETED, DIVERGED or FAILED in the run directory's status file.
 *
 * <p>Two signals stop it with a checkpoint, whose step the next {@code grid-run train} of the directory resumes
 * from. Each asks the trainer to stop at the next step boundary and save, and the job waits at most
 * {@link #STOP_WAIT} for that (SLURM sends SIGKILL 30 s after SIGTERM by default):
 * <ul>
 *   <li>SIGUSR1, a scheduler's notice of preemption (a batch script forwards it and requeues the job): the job
 *       records PREEMPTED, "stopped by SIGUSR1 at step S; checkpoint saved", and exits {@value #PREEMPTED_EXIT}
 *       (EX_TEMPFAIL of {@code sysexits.h}: try again later). It is handled through {@code sun.misc.Signal}; where
 *       the JVM does not allow that, the job says so on stderr and SIGUSR1 keeps its default effect.</li>
 *   <li>SIGTERM ({@code scancel}, {@code kill}, a time limit), through the JVM's shutdown hook: KILLED, "stopped by
 *       SIGTERM at step S; checkpoint saved", exit {@value #TERMINATED_EXIT} (128 + 15). When no checkpoint comes
 *       in time, KILLED says so and the next run resumes from the last periodic checkpoint. SIGINT and SIGHUP shut
 *       the JVM down too and take the same path, recorded as SIGTERM: a shutdown hook cannot tell them apart.</li>
 * </ul>
 * Both are in place before RUNNING is recorded. The first stop request wins; a signal during the last step lets the
 * run complete.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train one experiment from its run directory (what each job of a grid executes).")
final class TrainCommand implements Callable<Integer> {
    /** The exit code after SIGUSR1: preempted with a checkpoint, to be queued again. */
    static final int PREEMPTED_EXIT = 75;
    /** The exit code after SIGTERM, what a shell reports for a process the signal ended. */
    static final int TERMINATED_EXIT = 143;
    /** How long a signal waits for the checkpoint. */
    static final Duration STOP_WAIT = Duration.ofSeconds(25);
    /** How often a job given a store's URL writes to it. */
    static final Duration LIVE_PERIOD = Duration.ofSeconds(10);

    @Parameters(paramLabel = "RUN_DIR", description = "The experiment's run directory (holds experiment.yaml).")
    Path runDir;

    @Option(names = "--experiment", paramLabel = "JSON",
            description = "Stage RUN_DIR from this experiment when it holds none yet (what the task scripts of "
                    + "grid-run --cluster slurm do).")
    String experiment;

    @Option(names = "--db-url", paramLabel = "JDBC_URL",
            description = "Also write state and metrics live to this results store (what grid-run db serve "
                    + "prints), every 10 s and at the end; default $" + LiveIngest.URL_ENV
                    + ". The metric spool is written either way.")
    String dbUrl;

    @Mixin
    CommonOptions common;

    @Override
    public Integer call() throws Exception {
        RunDir dir = RunDir.at(runDir);
        if (experiment != null) {
            stage(dir, ExperimentJson.decode(experiment));
        }
        if (!dir.exists()) {
            throw new UserInputException(dir.experimentFile() + ": not found; run directories are made by "
                    + "grid-run --grid NAME");
        }
        Optional<TrainerLock> lock = TrainerLock.tryAcquire(dir);
        if (lock.isEmpty()) {
            System.err.println("grid-run train: another trainer holds " + dir + " (" + TrainerLock.FILE
                    + "); leaving the experiment to it");
            return TrainerLock.HELD_EXIT;
        }
        try (TrainerLock held = lock.get()) {
            return trainHolding(dir);
        }
    }

    /** What {@link #call} does while this process holds the run directory's lock. */
    private int trainHolding(RunDir dir) throws Exception {
        if (dir.status().state() == RunState.COMPLETED) {
            System.out.println("grid-run train: " + dir + " completed already; nothing to do");
            return 0;
        }
        Stopper stopper = new Stopper(dir);
        Thread hook = new Thread(() -> stopper.stopForShutdown(STOP_WAIT), "grid-run train shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Runnable restoreUsr1 = UnixSignal.handle("USR1", () -> stopper.request(Interruption.SIGUSR1));
        String url = dbUrl != null ? dbUrl : System.getenv(LiveIngest.URL_ENV);
        try (AutoCloseable live = LiveIngest.start(url, dir, System.err, LIVE_PERIOD)) {
            return train(dir, stopper, ProgressBarListener.forOutput(System.out, System.console() != null));
        } finally {
            restoreUsr1.run();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running and waits for the state this thread has recorded
            }
        }
    }

    /**
     * Writes {@code experiment.yaml} of {@code record} into a new run directory, or checks that an existing one holds
     * the same experiment; archives an earlier attempt that left no checkpoint.
     */
    private static void stage(RunDir dir, ExperimentRecord record) {
        if (!dir.exists()) {
            dir.writeExperiment(record);
            dir.status().append(RunState.STAGED, schedulerJob(), "staged by its job");
            return;
        }
        String held = dir.readExperiment().id();
        if (!held.equals(record.id())) {
            throw new UserInputException(dir + " holds experiment " + held + ", not " + record.id() + " ("
                    + record.name() + "); was the grid changed and its scripts rewritten while jobs were queued?");
        }
        RunState state = dir.status().state();
        if (state != null && state.isTerminal() && state != RunState.COMPLETED) {
            Stager.archivePreviousAttempt(dir);
        }
    }

    /** Records RUNNING, trains until the end or a stop request, and records the outcome; returns the exit code. */
    int train(RunDir dir, Stopper stopper, TrainListener listener) {
        dir.status().append(RunState.RUNNING, schedulerJob(), runningNote() + resumeNote(dir));
        try {
            TrainResult result = TrainJob.run(dir, listener, stopper.signal());
            return stopper.finish(() -> record(dir, result));
        } catch (ConfigException e) {
            stopper.finish(() -> fail(dir, "bad config: " + e.getMessage()));
            throw e;
        } catch (RuntimeException | Error e) {
            stopper.finish(() -> fail(dir, BadFileException.messageOf(e)));
            throw e;
        }
    }

    /** The SLURM job this process runs in, {@code slurm:<array id>_<task>} or {@code slurm:<id>}; else empty. */
    static String schedulerJob() {
        String array = System.getenv("SLURM_ARRAY_JOB_ID");
        String task = System.getenv("SLURM_ARRAY_TASK_ID");
        if (array != null && task != null) {
            return "slurm:" + array + "_" + task;
        }
        String job = System.getenv("SLURM_JOB_ID");
        return job == null ? "" : "slurm:" + job;
    }

    /** What the RUNNING entry says: this process, and the git commit of this gridrun when it is known. */
    static String runningNote() {
        return "pid " + ProcessHandle.current().pid()
                + GitProvenance.ofThisBuild().map(git -> "; " + git.note()).orElse("");
    }

    /** "; resumed from checkpoint at step N" once the checkpoint has been checked whole; else nothing. */
    private static String resumeNote(RunDir dir) {
        try {
            OptionalLong step = TrainJob.verifiedCheckpointStep(dir);
            return step.isPresent() ? "; resumed from checkpoint at step " + step.getAsLong() : "";
        } catch (RuntimeException unreadable) {
            return ""; // training fails on the same file and records why
        }
    }

    private static int record(RunDir dir, TrainResult result) {
        if (result.diverged()) {
            dir.status().append(RunState.DIVERGED, "loss became NaN or infinite at step " + result.steps());
            return ErrorHandler.FAILURE;
        }
        if (result.stopped()) {
            Interruption cause = Interruption.valueOf(result.stopReason());
            dir.status().append(cause.state, "stopped by " + cause + " at step " + result.steps()
                    + "; checkpoint saved");
            return cause.exitCode;
        }
        dir.status().append(RunState.COMPLETED, String.format(Locale.ROOT,
                "%s %.4f after %d steps; data: %s; backend: %s", result.headline().metric(), result.finalHeadline(),
                result.steps(), result.dataSource(), result.backend()));
        return 0;
    }

    private static int fail(RunDir dir, String detail) {
        dir.status().append(RunState.FAILED, detail);
        return ErrorHandler.FAILURE;
    }

    /** A signal that stops training with a checkpoint: the state it stands for and the exit code. */
    enum Interruption {
        SIGUSR1(RunState.PREEMPTED, PREEMPTED_EXIT),
        SIGTERM(RunState.KILLED, TERMINATED_EXIT);

        final RunState state;
        final int exitCode;

        Interruption(RunState state, int exitCode) {
            this.state = state;
            this.exitCode = exitCode;
        }
    }

    /**
     * Connects signal handlers to a training run: passes their stop request on, and lets the one in the shutdown
     * hook wait until the run has recorded its final state, which exactly one thread records.
     */
    static final class Stopper {
        private final RunDir dir;
        private final StopSignal signal = new StopSignal();
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch recorded = new CountDownLatch(1);

        Stopper(RunDir dir) {
            this.dir = dir;
        }

        StopSignal signal() {
            return signal;
        }

        /** Asks the run to stop for {@code cause}; the first request wins. */
        void request(Interruption cause) {
            if (signal.request(cause.name())) {
                System.err.println("grid-run train: " + cause + ", stopping at the next step boundary to save a "
                        + "checkpoint");
            }
        }

        /** Records the final state with {@code record} unless another thread did; returns its exit code. */
        int finish(IntSupplier record) {
            if (!claimed.compareAndSet(false, true)) {
                return TERMINATED_EXIT;
            }
            try {
                return record.getAsInt();
            } finally {
                recorded.countDown();
            }
        }

        /**
         * What the shutdown hook does: requests the stop and waits up to {@code wait} for the final state; without
         * it, records KILLED without a checkpoint itself.
         */
        void stopForShutdown(Duration wait) {
            request(Interruption.SIGTERM);
            if (!await(wait)) {
                finish(() -> {
                    dir.status().append(RunState.KILLED, "stopped by SIGTERM; no checkpoint within "
                            + wait.toSeconds() + " s, the next run resumes from the last periodic one");
                    return TERMINATED_EXIT;
                });
                await(Duration.ofSeconds(5));
            }
        }

        private boolean await(Duration wait) {
            try {
                return recorded.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /**
     * Installs a handler of a Unix signal through {@code sun.misc.Signal}, reached by reflection: the class is
     * supported in practice (module {@code jdk.unsupported}) but javac warns on every direct use.
     */
    static final class UnixSignal {
        private UnixSignal() {
        }

        /**
         * Runs {@code action} on every SIG{@code name}, on a thread of the JVM's; returns what puts the previous
         * handler back. Where the JVM does not let the signal be handled, says so on stderr and returns a no-op.
         */
        static Runnable handle(String name, Runnable action) {
            try {
                Class<?> signalClass = Class.forName("sun.misc.Signal");
                Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
                Object signal = signalClass.getConstructor(String.class).newInstance(name);
                Object handler = Proxy.newProxyInstance(UnixSignal.class.getClassLoader(),
                        new Class<?>[] {handlerClass}, (proxy, method, args) -> switch (method.getName()) {
                            case "handle" -> {
                                action.run();
                                yield null;
                            }
                            case "equals" -> proxy == args[0];
                            case "hashCode" -> System.identityHashCode(proxy);
                            default -> "grid-run handler of SIG" + name;
                        });
                Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
                Object previous = handle.invoke(null, signal, handler);
                return () -> {
                    try {
                        handle.invoke(null, signal, previous);
                    } catch (ReflectiveOperationException e) {
                        // the job is ending: a handler left in place does no harm
                    }
                };
            } catch (ReflectiveOperationException | RuntimeException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                System.err.println("grid-run train: cannot handle SIG" + name + " in this JVM (" + cause
                        + "); SIGTERM still stops the job with a checkpoint");
                return () -> { };
            }
        }
    }
}
