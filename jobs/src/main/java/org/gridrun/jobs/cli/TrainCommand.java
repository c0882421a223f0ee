package org.gridrun.jobs.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.train.TrainJob;
import org.gridrun.engine.train.TrainResult;
import org.gridrun.jobs.UserInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code grid-run train RUN_DIR}: what one job executes; it needs nothing but its run directory and the jar.
 *
 * <p>It records RUNNING, trains, and records COMPLETED, DIVERGED or FAILED in the run directory's status file.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train one experiment from its run directory (what each job of a grid executes).")
final class TrainCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR", description = "The experiment's run directory (holds experiment.yaml).")
    Path runDir;

    @Mixin
    CommonOptions common;

    @Override
    public Integer call() {
        RunDir dir = RunDir.at(runDir);
        if (!dir.exists()) {
            throw new UserInputException(dir.experimentFile() + ": not found; run directories are made by "
                    + "grid-run --grid NAME");
        }
        dir.status().append(RunState.RUNNING, "pid " + ProcessHandle.current().pid());
        try {
            TrainResult result = TrainJob.run(dir, new LogListener(System.out));
            if (result.diverged()) {
                dir.status().append(RunState.DIVERGED, "loss became NaN or infinite at step " + result.steps());
                return ErrorHandler.FAILURE;
            }
            dir.status().append(RunState.COMPLETED, String.format(Locale.ROOT,
                    "Vacc %.4f after %d steps; data: %s; backend: %s", result.finalAccuracy(), result.steps(),
                    result.dataSource(), result.backend()));
            return 0;
        } catch (ConfigException e) {
            dir.status().append(RunState.FAILED, "bad config: " + e.getMessage());
            throw e;
        } catch (RuntimeException | Error e) {
            dir.status().append(RunState.FAILED, e.toString());
            throw e;
        }
    }
}
