package org.gridrun.engine.train;

import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.data.FashionMnist;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;

/**
 * Trains one experiment from its run directory: what a {@code grid-run train} job executes.
 *
 * <p>Reads the resolved configuration from {@code experiment.yaml}, builds data, backend, model and compressor,
 * appends metrics to the directory's spool, and returns the outcome. It does not write the status file: the caller
 * records RUNNING before and COMPLETED, DIVERGED or FAILED after.
 */
public final class TrainJob {
    private TrainJob() {
    }

    /**
     * Trains the experiment of {@code dir}, reporting progress to {@code listener}.
     *
     * <p>A bad configuration fails with a {@link ConfigException}; missing data files with an
     * {@link java.io.UncheckedIOException} whose message says where it looked and how to install them.
     */
    public static TrainResult run(RunDir dir, TrainListener listener) {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(dir.readExperiment().config()));
        TrainTestData data = FashionMnist.load(config.dataDir());
        try (Backend backend = Backends.open(config.backend());
             Trainer trainer = new Trainer(config, backend, data);
             MetricSpool.Writer metrics = MetricSpool.append(dir.metricsFile())) {
            return trainer.run(metrics, listener);
        }
    }
}
