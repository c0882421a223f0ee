package org.gridrun.engine.train;

import java.util.Locale;
import java.util.OptionalLong;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.backend.cuda.GpuOutOfMemoryException;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.data.TextCorpus;
import org.gridrun.engine.data.TokenStream;
import org.gridrun.engine.data.VocabularyFile;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;

/**
 * Trains one experiment from its run directory: what a {@code grid-run train} job executes.
 *
 * <p>Reads the resolved configuration from {@code experiment.yaml}, builds data, backend, model and compressor,
 * appends metrics to the directory's spool, saves checkpoints to its {@code checkpoint.bin}, and returns the
 * outcome. When the directory holds a checkpoint of the same config id, the run resumes from it: the spool keeps its
 * records up to the checkpoint's step and drops later ones, which the resumed run writes again, so each
 * (name, step) is recorded once; a run that starts from the beginning drops every earlier record. A checkpoint of
 * another config is ignored and replaced by the next save; a damaged one fails the run before the spool is touched.
 *
 * <p>It does not write the status file: the caller records RUNNING before and COMPLETED, DIVERGED, FAILED, or the
 * state a stop request stands for, after.
 */
public final class TrainJob {
    private TrainJob() {
    }

    /**
     * Trains the experiment of {@code dir} to its last step, reporting progress to {@code listener}.
     *
     * <p>A configuration this build rejects fails with a {@link BadFileException} naming {@code experiment.yaml}
     * (its cause the {@link ConfigException}); missing data files with an
     * {@link java.io.UncheckedIOException} whose message says where it looked and how to install them; a damaged data
     * file, {@code experiment.yaml} or checkpoint with a {@link BadFileException} that names it.
     */
    public static TrainResult run(RunDir dir, TrainListener listener) {
        return run(dir, listener, new StopSignal());
    }

    /**
     * Trains the experiment of {@code dir} until its last step or until {@code stop} is requested, which saves a
     * checkpoint at the next step boundary and returns a result that {@link TrainResult#stopped() says so}.
     *
     * <p>Fails as {@link #run(RunDir, TrainListener)} does.
     */
    public static TrainResult run(RunDir dir, TrainListener listener, StopSignal stop) {
        ExperimentRecord experiment = dir.readExperiment();
        TrainerConfig config = config(dir, experiment);
        TrainTestData data = load(config);
        if (data.train() instanceof TokenStream text) {
            VocabularyFile.keep(dir.path(), text.vocabulary());
        }
        Checkpoint checkpoint = new Checkpoint(dir.checkpointFile(), experiment.id());
        try (Backend backend = Backends.open(config.backend());
             Trainer trainer = new Trainer(config, backend, data)) {
            long from = checkpoint.verifiedStep().isPresent() ? trainer.resume(checkpoint) : 0;
            MetricSpool.truncateAfter(dir.metricsFile(), from);
            try (MetricSpool.Writer metrics = MetricSpool.append(dir.metricsFile())) {
                return trainer.run(metrics, listener, checkpoint, stop);
            }
        } catch (GpuOutOfMemoryException e) {
            boolean atOnce = config.ngpu() > 1 && config.cudaGraph() && config.concurrentWorkers();
            throw new IllegalStateException(String.format(Locale.ROOT, "model %s at batch %d with %d workers does "
                    + "not fit the GPU: %s; lower batch_size or ngpu, %sor use a GPU with more memory",
                    config.model(), config.batchSize(), config.ngpu(), e.getMessage(), atOnce
                            ? "set concurrent_workers: false (the workers then share one worker's activation "
                            + "memory, and run one after another, with the same results; "
                            + "GRIDRUN_JAVA_OPTS=-Dgridrun.concurrent_workers=false does it without changing the "
                            + "grid, so its experiments keep their names), " : ""), e);
        }
    }

    /** The data of {@code config}: a text file, the generated text, or the named data set. */
    public static TrainTestData load(TrainerConfig config) {
        if (config.dataset().equals(DataSets.TEXT)) {
            return TextCorpus.file(config.language().path(), config.language().characters());
        }
        if (config.dataset().equals(TextCorpus.GENERATED)) {
            return TextCorpus.generated();
        }
        return DataSets.load(config.dataset(), config.dataDir(), config.dataOptions());
    }

    /**
     * The trainer's config that {@code dir}'s {@code experiment.yaml} holds, as a run of it reads it: a file that is
     * not the one gridrun writes, or holds a config this build rejects, fails with a {@link BadFileException}.
     */
    public static TrainerConfig readConfig(RunDir dir) {
        return config(dir, dir.readExperiment());
    }

    private static TrainerConfig config(RunDir dir, ExperimentRecord experiment) {
        try {
            return TrainerConfig.from(TrainerConfig.resolve(experiment.config()));
        } catch (ConfigException e) {
            throw new BadFileException(dir.experimentFile(), null, "bad config: " + e.getMessage(), "stage it "
                    + "again from its grid (grid-run --grid GRID writes the file), or fix the value", e);
        }
    }

    /**
     * The step a run of {@code dir} would resume from: present when the directory holds a checkpoint of its
     * experiment's config id, empty when it would start from the beginning.
     *
     * <p>Reads only the checkpoint's header; a file that is not a checkpoint this build reads fails with a
     * {@link BadFileException} that names it.
     */
    public static OptionalLong checkpointStep(RunDir dir) {
        return new Checkpoint(dir.checkpointFile(), dir.readExperiment().id()).step();
    }

    /**
     * As {@link #checkpointStep}, once the whole checkpoint has been read and its checksum checked: what a status
     * line may call the step a run resumes from. A damaged file fails with a message that names it.
     */
    public static OptionalLong verifiedCheckpointStep(RunDir dir) {
        return new Checkpoint(dir.checkpointFile(), dir.readExperiment().id()).verifiedStep();
    }
}
