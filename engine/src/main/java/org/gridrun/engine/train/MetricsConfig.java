package org.gridrun.engine.train;

import org.gridrun.engine.config.Settings;

/**
 * The trainer's training modes and measurements: what drives the step, what is measured besides it, and the network
 * the communication time is modelled on.
 *
 * <p>Step {@code t} counts from 1. It applies the plain average of the workers' full-precision gradients when
 * {@code measureOnly} (the compressor still encodes and decodes, for its metrics) or {@code t ≤ compressStart} (the
 * compressor does not run); otherwise the compressed one.
 *
 * @param measureOnly      train with plain SGD while measuring the compressor (the seed without {@code g_optim})
 * @param compressStart    steps that run in full precision before the compressor takes over ({@code g_optim_start})
 * @param gvarLogIter      steps between gradient-variance measurements; 0: none
 * @param gvarStart        the first step at which the variance may be measured
 * @param gvarEstimIter    draws of each of the measurement's two passes ({@code gvar_estim_iter})
 * @param trainAccuracy    whether {@code Tloss} and {@code Tacc} are recorded with each test-set evaluation
 * @param netLatencyUs     the modelled network's per-message latency, in microseconds
 * @param netBandwidthGbps the modelled network's per-link bandwidth, in gigabits per second
 * @param workersModel     the worker count W of the communication model; 0: {@code ngpu}
 */
public record MetricsConfig(boolean measureOnly, int compressStart, int gvarLogIter, int gvarStart,
                            int gvarEstimIter, boolean trainAccuracy, double netLatencyUs, double netBandwidthGbps,
                            int workersModel) {


    /** The values of the keys of the same names ({@link TrainerConfig#schema()} documents them), range-checked. */
    static MetricsConfig from(Settings s) {
        return new MetricsConfig(s.bool("measure_only"), nonNegative(s, "compress_start"),
                nonNegative(s, "gvar_log_iter"), nonNegative(s, "gvar_start"), s.positiveInt("gvar_estim_iter"),
                s.bool("train_accuracy"), s.nonNegativeDouble("net_latency_us"),
                s.positiveDouble("net_bandwidth_gbps"), nonNegative(s, "workers_model"));
    }

    private static int nonNegative(Settings s, String name) {
        return s.intIn(name, 0, Integer.MAX_VALUE);
    }

    /** Whether step {@code t} applies the plain full-precision average rather than the compressed one. */
    boolean plainAt(long t) {
        return measureOnly || t <= compressStart;
    }

    /** Whether the compressor encodes at step {@code t}. */
    boolean encodesAt(long t) {
        return measureOnly || t > compressStart;
    }

    /** Whether the gradient variance is measured after step {@code t}. */
    boolean measuresVarianceAt(long t) {
        return gvarLogIter > 0 && t >= gvarStart && (t - gvarStart) % gvarLogIter == 0;
    }

    /** The communication model for {@code ngpu} workers unless {@code workers_model} names another count. */
    CommModel commModel(int ngpu) {
        return new CommModel(netLatencyUs * 1e-6, netBandwidthGbps * 1e9 / 8, workersModel == 0 ? ngpu : workersModel);
    }
}
