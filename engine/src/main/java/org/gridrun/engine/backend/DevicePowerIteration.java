package org.gridrun.engine.backend;

/**
 * PowerSGD's whole step where a backend's tensors live ({@link Backend#powerIteration}): every worker's
 * {@code M = g + e}, the power iterations with their all-reduces and orthonormalisation, the averaged gradient and the
 * residuals left for the next step, each float the host's ({@code PowerSgdRounds}). The factors Q (and the alternating
 * variant's P; one copy, the workers' are equal) and each worker's residual stay on the device between steps; the host uploads them where it has
 * newer ones (the first step, a resumed state) and fetches them before it reads them (a checkpoint).
 */
public interface DevicePowerIteration {
    /** Replaces the device's Q factors by {@code q}, {@code qSize} values. */
    void uploadFactors(float[] q);

    /** Copies the device's Q factors into {@code q}. */
    void fetchFactors(float[] q);

    /** Replaces the device's P factors, kept by the alternating variant, by {@code p}, {@code pSize} values. */
    void uploadLeftFactors(float[] p);

    /** Copies the device's P factors, kept by the alternating variant, into {@code p}. */
    void fetchLeftFactors(float[] p);

    /** Replaces worker {@code worker}'s residual by {@code residual}, {@code size} values. */
    void uploadResidual(int worker, float[] residual);

    /** Copies worker {@code worker}'s residual into {@code residual}. */
    void fetchResidual(int worker, float[] residual);

    /**
     * One step on the workers' {@code gradients}, writing the average into {@code average}: compressed (the power
     * iterations), or, before compression starts, the plain average, which leaves the factors and the residuals
     * alone. The alternating variant's iteration {@code i} of the step sends P where {@code sendsLeft[i]}, else Q.
     */
    void step(Tensor[] gradients, boolean compress, boolean[] sendsLeft, Tensor average);
}
