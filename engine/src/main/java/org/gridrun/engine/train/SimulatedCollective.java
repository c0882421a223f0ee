package org.gridrun.engine.train;

import org.gridrun.engine.compress.Aggregation;
import org.gridrun.engine.compress.CollectiveCompressor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Payload;

/**
 * Combines the workers' payloads of one step into the averaged gradient, the way the compressor's
 * {@link Aggregation} says a cluster would, and counts what each worker sends.
 *
 * <p>{@code ALL_REDUCE}: the payloads are summed and the sum decoded, divided by the worker count; for the linear
 * codecs that declare it, decoding each payload and summing is the same sum, which is what the simulation does.
 * {@code ALL_GATHER}: every worker's payload is decoded on its own and the decoded gradients are averaged, as each
 * receiver would after gathering them. Either way each worker puts its own payload on the wire once;
 * {@link #meanPayloadBits()} and {@link #meanPayloadBytes()} report that, averaged over workers.
 * {@link #ringBytesPerWorker()} models the traffic of a ring collective on top: {@code 2(K−1)/K} payloads per worker
 * for all-reduce, {@code K−1} for all-gather. Buffers are allocated once; a step allocates nothing.
 *
 * <p>A {@link CollectiveCompressor} (PowerSGD) talks in several dependent all-reduce rounds, which one payload per
 * worker cannot express: {@link #reduce} runs its step for all workers at once and counts what each worker sent
 * over all the rounds.
 */
public final class SimulatedCollective {
    private final int workers;
    private final float[] scratch;
    private double meanBits;
    private double meanSideBits;
    private double meanBytes;
    private double ringBytes;
    private long decodeNanos;
    private Aggregation lastAggregation = Aggregation.ALL_REDUCE;

    /** A collective for {@code workers} workers and gradients of {@code length} values. */
    public SimulatedCollective(int workers, int length) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be positive, found " + workers);
        }
        this.workers = workers;
        this.scratch = new float[length];
    }

    /**
     * Writes the average of the decoded payloads into {@code out[0 … length)}.
     *
     * <p>{@code payloads[w]} was encoded by {@code compressors[w]}, which decodes it.
     */
    public void aggregate(Aggregation aggregation, Compressor[] compressors, Payload[] payloads, float[] out) {
        if (compressors.length != workers || payloads.length != workers) {
            throw new IllegalArgumentException("expected " + workers + " compressors and payloads");
        }
        long start = System.nanoTime();
        for (int w = 0; w < workers; w++) {
            compressors[w].decode(payloads[w], scratch, 0);
            addToMean(scratch, w, workers, out);
        }
        decodeNanos = System.nanoTime() - start;
        count(aggregation, payloads);
    }

    /**
     * Counts the payloads of a step whose decoding and averaging ran elsewhere (on the device) in
     * {@code decodeNanos}, as {@link #aggregate} counts its own.
     */
    public void countDecodedElsewhere(Aggregation aggregation, Payload[] payloads, long decodeNanos) {
        this.decodeNanos = decodeNanos;
        count(aggregation, payloads);
    }

    /**
     * Adds worker {@code w}'s {@code gradient} to the mean of {@code workers} gradients building in {@code mean}:
     * worker 0 overwrites it, the last scales the sum. Called for every worker in order, it gives the same floats as
     * {@link #aggregate} does for payloads that decode exactly, so plain SGD here equals the {@code none} method.
     */
    public static void addToMean(float[] gradient, int w, int workers, float[] mean) {
        int n = gradient.length;
        if (w == 0) {
            System.arraycopy(gradient, 0, mean, 0, n);
        } else {
            for (int i = 0; i < n; i++) {
                mean[i] += gradient[i];
            }
        }
        if (w == workers - 1) {
            float inverse = 1f / workers;
            for (int i = 0; i < n; i++) {
                mean[i] *= inverse;
            }
        }
    }

    /** Counts a step in which every worker sent its {@code length} values as float32, all-reduced; no decoding. */
    public void sendFullPrecision(int length) {
        decodeNanos = 0;
        count(Aggregation.ALL_REDUCE, 32L * length * workers, 4L * length * workers);
        meanSideBits = 0;
    }

    /**
     * Runs one step of a method that talks in several all-reduce rounds, writing the average into
     * {@code out[0 … length)}.
     *
     * <p>{@code compressors[w]} is worker {@code w}'s instance and {@code gradients[w]} its gradient. The time it
     * takes, all workers and rounds together, is reported as {@link #decodeNanos()}.
     */
    public void reduce(CollectiveCompressor[] compressors, float[][] gradients, float[] out) {
        if (compressors.length != workers || gradients.length != workers) {
            throw new IllegalArgumentException("expected " + workers + " compressors and gradients");
        }
        long start = System.nanoTime();
        compressors[0].step(compressors, gradients, out);
        countReducedElsewhere(compressors, System.nanoTime() - start);
    }

    /**
     * Counts the step of a method that talks in several all-reduce rounds, run elsewhere (on the device) in
     * {@code decodeNanos}, as {@link #reduce} counts its own.
     */
    public void countReducedElsewhere(CollectiveCompressor[] compressors, long decodeNanos) {
        this.decodeNanos = decodeNanos;
        long bits = 0;
        long bytes = 0;
        for (CollectiveCompressor c : compressors) {
            bits += c.sentBits();
            bytes += c.sentBytes();
        }
        count(Aggregation.ALL_REDUCE, bits, bytes);
        meanSideBits = 0;
    }

    private void count(Aggregation aggregation, Payload[] payloads) {
        long bits = 0;
        long side = 0;
        long bytes = 0;
        for (Payload p : payloads) {
            bits += p.bits();
            side += p.sideBits();
            bytes += p.bytes().length;
        }
        count(aggregation, bits, bytes);
        meanSideBits = (double) side / workers;
    }

    private void count(Aggregation aggregation, long bits, long bytes) {
        lastAggregation = aggregation;
        meanBits = (double) bits / workers;
        meanBytes = (double) bytes / workers;
        ringBytes = aggregation == Aggregation.ALL_REDUCE ? meanBytes * 2.0 * (workers - 1) / workers
                : meanBytes * (workers - 1);
    }

    /** The payload bits one worker sent in the last step, averaged over workers. */
    public double meanPayloadBits() {
        return meanBits;
    }

    /**
     * Of {@link #meanPayloadBits()}, the side bits ({@link Payload#sideBits()}: headers, scales, maps, indices);
     * 0 for full precision and for multi-round methods, whose every bit is a value.
     */
    public double meanSideBits() {
        return meanSideBits;
    }

    /** The payload bytes one worker sent in the last step, averaged over workers. */
    public double meanPayloadBytes() {
        return meanBytes;
    }

    /** How the last step's payloads were combined. */
    public Aggregation lastAggregation() {
        return lastAggregation;
    }

    /** The bytes one worker would send in the last step's ring collective. */
    public double ringBytesPerWorker() {
        return ringBytes;
    }

    /** The time the last {@link #aggregate} spent decoding and averaging (or {@link #reduce} took), in nanoseconds. */
    public long decodeNanos() {
        return decodeNanos;
    }
}
