package org.gridrun.engine.train;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.gridrun.engine.compress.Aggregation;
import org.gridrun.engine.compress.CollectiveCompressor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.TensorLayout;

/**
 * Measures, at the current parameters, the variance of the step's gradient estimator with and without compression:
 * the seed's {@code est_var} and {@code sgd_var}.
 *
 * <p>Draw d has every worker w compute the gradient {@code g_wd} of a minibatch of its variance stream
 * ({@link Worker#varianceGradient}); the plain estimate is their mean, the compressed one the mean of their
 * encoded-and-decoded versions, aggregated as in training. As in the seed, a first pass of D draws gives the mean
 * estimate {@code E}, a second pass of D fresh draws the variance {@code (1/D) Σ_d (1/n) Σ_i (e_di − E_i)²}: the
 * per-coordinate variance averaged over the n coordinates. Both estimators see the same draws, so for a lossless
 * method the two are equal. Unlike the seed, whose {@code sgd_var} is that of one worker's minibatch, the plain
 * estimator averages the same K workers, so the ratio isolates what compression adds.
 *
 * <p>The compressed draws are encoded by probes: per worker, a copy of its compressor on the same stream that takes
 * the training instance's state before each measurement, so training is untouched. Within a measurement the probes
 * go on from that state draw after draw (random stream, error-feedback memory and, should its schedule fall among
 * the draws, an adaptive quantizer's re-fit to the gradient it encodes). Draw numbers are
 * {@code 2D·(step − 1)} onwards, so a resumed run draws the same minibatches.
 */
final class GradientVariance {
    private final Worker[] workers;
    private final Compressor[] probes;
    private final CollectiveCompressor[] collectives;
    private final Aggregation aggregation;
    private final SimulatedCollective collective;
    private final Payload[] payloads;
    private final int draws;
    private final float[][] gradients;
    private final float[] plain;
    private final float[] compressed;
    private final double[] plainMean;
    private final double[] compressedMean;

    /** Probes copy {@code prototype} on the streams {@code streamBase + w} of the training compressors. */
    GradientVariance(Worker[] workers, Compressor prototype, long streamBase, TensorLayout layout, int draws) {
        int n = layout.size();
        this.workers = workers;
        this.probes = new Compressor[workers.length];
        for (int w = 0; w < workers.length; w++) {
            probes[w] = prototype.copy(streamBase + w);
            probes[w].bind(layout);
        }
        this.collectives = prototype instanceof CollectiveCompressor
                ? Arrays.copyOf(probes, probes.length, CollectiveCompressor[].class) : null;
        this.aggregation = prototype.aggregation();
        this.collective = new SimulatedCollective(workers.length, n);
        this.payloads = new Payload[workers.length];
        this.draws = draws;
        this.gradients = new float[workers.length][n];
        this.plain = new float[n];
        this.compressed = new float[n];
        this.plainMean = new double[n];
        this.compressedMean = new double[n];
    }

    /** The variances after {@code step} with the training compressors in {@code trained}: compressed, then plain. */
    double[] measure(long step, Compressor[] trained) {
        for (int w = 0; w < probes.length; w++) {
            copyState(trained[w], probes[w]);
        }
        long first = 2L * draws * (step - 1);
        Arrays.fill(plainMean, 0);
        Arrays.fill(compressedMean, 0);
        for (int d = 0; d < draws; d++) {
            draw(first + d);
            accumulate(plain, plainMean);
            accumulate(compressed, compressedMean);
        }
        scale(plainMean, 1.0 / draws);
        scale(compressedMean, 1.0 / draws);
        double plainVariance = 0;
        double compressedVariance = 0;
        for (int d = 0; d < draws; d++) {
            draw(first + draws + d);
            plainVariance += meanSquaredDeviation(plain, plainMean);
            compressedVariance += meanSquaredDeviation(compressed, compressedMean);
        }
        return new double[] {compressedVariance / draws, plainVariance / draws};
    }

    /** Every worker's gradient of {@code draw}, their plain mean and their compressed mean. */
    private void draw(long draw) {
        for (int w = 0; w < workers.length; w++) {
            workers[w].varianceGradient(draw, gradients[w]);
            SimulatedCollective.addToMean(gradients[w], w, workers.length, plain);
        }
        if (collectives != null) {
            collective.reduce(collectives, gradients, compressed);
            return;
        }
        for (int w = 0; w < workers.length; w++) {
            payloads[w] = probes[w].encode(gradients[w], 0, gradients[w].length);
        }
        collective.aggregate(aggregation, probes, payloads, compressed);
    }

    private static void copyState(Compressor from, Compressor to) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            from.saveState(new DataOutputStream(bytes));
            to.reset();
            to.restoreState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void accumulate(float[] x, double[] sum) {
        for (int i = 0; i < x.length; i++) {
            sum[i] += x[i];
        }
    }

    private static void scale(double[] x, double factor) {
        for (int i = 0; i < x.length; i++) {
            x[i] *= factor;
        }
    }

    private static double meanSquaredDeviation(float[] x, double[] mean) {
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            double e = x[i] - mean[i];
            sum += e * e;
        }
        return sum / x.length;
    }
}
