package org.gridrun.engine.train;

import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.data.DataThreads;
import org.gridrun.engine.data.ImageData;
import org.gridrun.engine.model.Evaluation;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.run.MetricSpool;

/**
 * The metrics the trainer records besides loss, payload size and timings: the modelled communication, the gradient
 * variance with the compressor's diagnostics, and the training-set evaluation.
 *
 * <p>Every log record: {@code compute_ms} (one worker's gradient computation per step), {@code comm_ms_model} (the
 * {@link CommModel} time of the last step's payloads) and {@code speedup_model} (over full-precision SGD). After
 * each step {@link MetricsConfig#measuresVarianceAt} names: {@code est_var} and {@code sgd_var}
 * ({@link GradientVariance}) and worker 0's compressor {@link Compressor#diagnostics() diagnostics}
 * ({@code levels/i}, {@code nb_error}, {@code multiplier}), as the seed logs them together. With each test-set
 * evaluation when {@code train_accuracy} is set: {@code Tloss} and {@code Tacc} on the whole training set. Nothing
 * here changes the training: a run records the same loss and parameters with or without it.
 */
final class StepMetrics implements AutoCloseable {
    private final MetricsConfig config;
    private final CommModel comm;
    private final int parameters;
    private final GradientVariance variance;
    private final Evaluator trainEvaluator;

    /** Allocates the variance measurement and the training-set evaluator only when they are asked for. */
    StepMetrics(MetricsConfig config, Backend backend, Model model, ImageData train, DataThreads threads,
                Model.Workspace workspace, Worker[] workers,
                Compressor prototype) {
        this.config = config;
        this.comm = config.commModel(workers.length);
        this.parameters = model.parameterCount();
        this.variance = config.gvarLogIter() == 0 ? null : new GradientVariance(workers, prototype,
                Trainer.COMPRESSOR_STREAM_BASE, model.layout(), config.gvarEstimIter());
        this.trainEvaluator = config.trainAccuracy() ? new Evaluator(backend, model, train, threads, workspace) : null;
    }

    /** The communication metrics of a log record: {@code interval}'s timings, {@code collective}'s last step. */
    void logComm(MetricSpool.Writer metrics, long step, IntervalStats interval, SimulatedCollective collective) {
        double commMs = 1e3 * comm.seconds(collective.lastAggregation(), collective.meanPayloadBytes());
        double fullMs = 1e3 * comm.fullPrecisionSeconds(parameters);
        metrics.write("compute_ms", step, interval.computeMillis());
        metrics.write("comm_ms_model", step, commMs);
        metrics.write("speedup_model", step, CommModel.speedup(interval.computeMillis(), interval.encodeMillis(),
                interval.decodeMillis(), commMs, fullMs));
    }

    /** Whether {@link #measure} measures at {@code step}. */
    boolean measuresAt(long step) {
        return variance != null && config.measuresVarianceAt(step);
    }

    /** Measures the variance and records the diagnostics of {@code compressors[0]} if {@code step} is due. */
    void measure(MetricSpool.Writer metrics, long step, Compressor[] compressors) {
        if (!measuresAt(step)) {
            return;
        }
        double[] v = variance.measure(step, compressors);
        metrics.write("est_var", step, v[0]);
        metrics.write("sgd_var", step, v[1]);
        for (Map.Entry<String, Double> d : compressors[0].diagnostics().entrySet()) {
            metrics.write(d.getKey(), step, d.getValue());
        }
        metrics.flush();
    }

    /** Records {@code Tloss} and {@code Tacc} on the training set, if asked for. */
    void evaluateTraining(MetricSpool.Writer metrics, long step) {
        if (trainEvaluator != null) {
            Evaluation e = trainEvaluator.evaluate();
            metrics.write("Tloss", step, e.meanLoss());
            metrics.write("Tacc", step, e.accuracy());
        }
    }

    @Override
    public void close() {
        if (trainEvaluator != null) {
            trainEvaluator.close();
        }
    }
}
