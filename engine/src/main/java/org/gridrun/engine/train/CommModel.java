package org.gridrun.engine.train;

import org.gridrun.engine.compress.Aggregation;

/**
 * A model of the time W workers spend exchanging one step's gradients over a network of per-message latency α and
 * per-link bandwidth β, and of the speedup it implies over full-precision SGD.
 *
 * <p>Each worker contributes a message of b bytes. A ring all-reduce (reduce-scatter then all-gather) takes
 * {@code 2(W−1)·α + 2(W−1)/W · b/β}; a ring all-gather of every worker's message, which methods whose payloads
 * cannot be summed need, takes {@code (W−1)·α + (W−1)·b/β}. Full-precision SGD is a ring all-reduce of
 * {@code 4n} bytes for n parameters. The speedup is
 * {@code (compute + fp32 comm) / (compute + encode + decode + comm)}, all per step. One worker talks to no one:
 * every time is zero.
 *
 * @param latencySeconds α, seconds per message
 * @param bytesPerSecond β, bytes per second per link
 * @param workers        W
 */
public record CommModel(double latencySeconds, double bytesPerSecond, int workers) {
    public CommModel {
        if (!(latencySeconds >= 0) || !(bytesPerSecond > 0) || workers < 1) {
            throw new IllegalArgumentException("latency must be non-negative, bandwidth and workers positive, found "
                    + latencySeconds + ", " + bytesPerSecond + ", " + workers);
        }
    }

    /** Seconds of a ring all-reduce of messages of {@code bytes}. */
    public double allReduceSeconds(double bytes) {
        int hops = workers - 1;
        return 2.0 * hops * latencySeconds + 2.0 * hops / workers * bytes / bytesPerSecond;
    }

    /** Seconds of a ring all-gather of one message of {@code bytes} from every worker. */
    public double allGatherSeconds(double bytes) {
        int hops = workers - 1;
        return hops * latencySeconds + hops * bytes / bytesPerSecond;
    }

    /** Seconds to exchange messages of {@code bytes} the way {@code aggregation} says. */
    public double seconds(Aggregation aggregation, double bytes) {
        return aggregation == Aggregation.ALL_REDUCE ? allReduceSeconds(bytes) : allGatherSeconds(bytes);
    }

    /** Seconds of full-precision SGD's exchange of {@code parameters} float32 values. */
    public double fullPrecisionSeconds(int parameters) {
        return allReduceSeconds(4.0 * parameters);
    }

    /** {@code (compute + fp32Comm) / (compute + encode + decode + comm)}, any one unit of time. */
    public static double speedup(double compute, double encode, double decode, double comm, double fp32Comm) {
        return (compute + fp32Comm) / (compute + encode + decode + comm);
    }
}
