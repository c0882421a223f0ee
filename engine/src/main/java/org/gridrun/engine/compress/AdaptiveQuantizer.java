package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.gridrun.engine.compress.levels.Density;
import org.gridrun.engine.compress.levels.DensityFit;
import org.gridrun.engine.compress.levels.FittedLevels;
import org.gridrun.engine.compress.levels.LevelFitter;
import org.gridrun.engine.compress.levels.VarianceProxy;

/**
 * The adaptive quantizers of ALQ/AMQ ({@code alq}, {@code alqg}, {@code amq} and their norm-based {@code _nb}
 * variants): bucketed L2 quantization with unbiased stochastic rounding, whose {@code 2^bits} levels are re-fitted
 * on a schedule to the distribution of the normalised gradient values.
 *
 * <p>Schedule ({@code osnap_iter}, e.g. {@code 100,1000,10000}), counted as the seed counts: by the steps done
 * before the one about to be encoded, {@code n = t − 1} for the instance's {@code t}-th {@code encode} call. It re-fits
 * just before that step when {@code n} is in the list or a multiple of the last value {@code L}. So the first step
 * always fits (0 is a multiple of every period: the seed's optimizer fits at its iteration 0), then after 100, 1,000,
 * 10,000, 20,000, … steps. The starting levels, uniform (ALQ) or {@code ±0.5^j} (AMQ), are only the fits' state
 * before that first fit.
 *
 * <p>What the fit sees: as in the seed, {@code number_of_samples} freshly sampled gradients, drawn from the
 * {@link GradientSampler} the trainer binds (draws {@code (t − 1)·number_of_samples} onwards at step {@code t}, so a
 * resumed run draws the same ones); an instance without a sampler (the {@code compress} command, unit tests) fits
 * to the gradient about to be encoded instead. Every sample is bucketed as encoding buckets it (per layer, raw
 * small buckets left out) and its values divided by their bucket's L2 norm; norm-less variants pool all of them into
 * one truncated normal ({@link DensityFit#normLess}), norm-based ones give every bucket's mean, standard deviation
 * and norm to {@link DensityFit#normBased} ({@code dist_num} largest buckets over all samples). The normals are
 * truncated to {@code [−truncated_interval, truncated_interval]}. Fitting itself uses no randomness, so a run is
 * determined by its seed. Fitted levels that are not strictly increasing (AMQ's {@code p^j} underflowing at 8 bits,
 * a degenerate symmetric fit) are dropped and the current levels kept.
 *
 * <p>Decoding uses the current levels, so a payload must be decoded before its encoder's next step; the simulated
 * collective decodes every payload on the encoding instance right after {@code encode}, which holds. State: the
 * random stream, the levels and the step counter, so a resumed run continues with the levels it had, not re-fitted.
 */
public final class AdaptiveQuantizer extends LevelQuantizer {
    private final AdaptiveMethod method;
    private final AdaptiveMethod.Params params;
    private final LevelFitter fitter;
    private final BucketStats stats = new BucketStats();
    private GradientSampler sampler;
    private float[] sampled = new float[0];
    private long step;
    /** Whether {@link #fitNow} fitted the levels since the last step, standing for the next step's scheduled fit. */
    private boolean fittedAhead;
    private long refits;
    private Density lastDensity;
    /** The variance proxy and AMQ's p of the levels in use, NaN before a kept re-fit (p: NaN for ALQ). */
    private double fittedProxy = Double.NaN;
    private double fittedMultiplier = Double.NaN;

    AdaptiveQuantizer(AdaptiveMethod method, AdaptiveMethod.Params params, long seed, long stream) {
        super(params.bits(), params.bucketSize(), params.perLayer(), params.ignoreSmallBuckets(), Norm.L2,
                method.initialLevels(params.bits()), true, seed, stream);
        this.method = method;
        this.params = params;
        this.fitter = method.fitter(params);
    }

    /**
     * Whether step {@code t} (from 1) re-fits under the schedule {@code osnap}, a non-decreasing list ending in a
     * positive period: when the {@code t − 1} steps done before it are a listed count or a multiple of the last.
     */
    static boolean refitsAt(long t, List<Integer> osnap) {
        long done = t - 1;
        return done % osnap.get(osnap.size() - 1) == 0 || done <= Integer.MAX_VALUE && osnap.contains((int) done);
    }

    /** Whether the step after the last one encoded re-fits: on schedule, unless {@link #fitNow} made its fit. */
    private boolean refitsNext() {
        return refitsAt(step + 1, params.osnapIter()) && !fittedAhead;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        nextStep(gradient, offset, length);
        return super.encode(gradient, offset, length);
    }

    /**
     * Counts a step and refits the levels where the schedule says so: to the sampler's gradients, or without a
     * sampler to {@code g} (which may then not be null).
     */
    private void nextStep(float[] g, int offset, int length) {
        boolean refits = refitsNext();
        step++;
        fittedAhead = false;
        if (refits) {
            refit(g, offset, length);
        }
    }

    /**
     * {@inheritDoc} A step that refits the levels plans on the device only when a sampler lends the fit its
     * gradients; one that would fit to the encoded gradient itself is the host's (empty, the step not counted).
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        if (!encodesOnDevice(length) || refitsNext() && sampler == null) {
            return Optional.empty();
        }
        nextStep(null, 0, length);
        return super.planDeviceEncode(length);
    }

    @Override
    public boolean refitsInNextPlan() {
        return sampler != null && refitsNext();
    }

    @Override
    public void bindSampler(GradientSampler sampler) {
        this.sampler = sampler;
    }

    private void refit(float[] g, int offset, int length) {
        stats.clear();
        if (sampler == null) {
            stats.add(g, offset, bucketsFor(length));
        } else {
            if (sampled.length != length) {
                sampled = new float[length];
            }
            for (int i = 0; i < params.samples(); i++) {
                sampler.sample((step - 1) * params.samples() + i, sampled);
                stats.add(sampled, 0, bucketsFor(length));
            }
        }
        fit();
    }

    /**
     * Fits the levels now to {@code samples}, gradients as long as the ones to encode (bound layout), as a scheduled
     * re-fit does to sampled ones: for the {@code compress} command, which has no trainer to lend it gradients. The
     * fit stands for the next step's, should the schedule fit there (the first step always does).
     *
     * @return the variance proxy, under the fitted density, of the levels before and after the fit
     */
    public double[] fitNow(List<float[]> samples) {
        stats.clear();
        for (float[] sample : samples) {
            stats.add(sample, 0, bucketsFor(sample.length));
        }
        double[] before = levels();
        fit();
        fittedAhead = true;
        return new double[] {VarianceProxy.value(lastDensity, before), VarianceProxy.value(lastDensity, levels())};
    }

    private void fit() {
        Density density = method.normBased() ? stats.normBased(params.distNum(), params.interval())
                : stats.normLess(params.interval());
        FittedLevels fit = fitter.fit(density, 1 << bits, fittedMultiplier);
        try {
            setLevels(fit.levels());
            fittedProxy = fit.proxy();
            fittedMultiplier = fit.multiplier().orElse(Double.NaN);
        } catch (IllegalArgumentException degenerate) {
            // keep the current levels; see the class comment
        }
        lastDensity = density;
        refits++;
    }

    /** Encode calls so far (package-private, for tests). */
    long step() {
        return step;
    }

    /** Re-fits so far on this instance since its creation, reset or restore (package-private, for tests). */
    long refits() {
        return refits;
    }

    /** The density of the latest re-fit, or null before the first (package-private, for tests). */
    Density lastDensity() {
        return lastDensity;
    }

    /**
     * {@code levels/j} for every current level; after a re-fit that was kept, {@code nb_error} (its variance proxy)
     * and, for AMQ, {@code multiplier} (its p); before, AMQ's starting p of 0.5.
     */
    @Override
    public Map<String, Double> diagnostics() {
        Map<String, Double> d = new LinkedHashMap<>();
        double[] current = levels();
        for (int j = 0; j < current.length; j++) {
            d.put("levels/" + j, current[j]);
        }
        if (!Double.isNaN(fittedProxy)) {
            d.put("nb_error", fittedProxy);
        }
        if (!Double.isNaN(fittedMultiplier)) {
            d.put("multiplier", fittedMultiplier);
        } else if (method.exponential()) {
            d.put("multiplier", AdaptiveMethod.STARTING_MULTIPLIER);
        }
        return d;
    }

    @Override
    public String name() {
        return method.methodName();
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = bucketingConfig();
        config.putAll(method.fitConfig(params));
        config.put("osnap_iter", params.osnapIter().stream().map(String::valueOf).collect(Collectors.joining(",")));
        return config;
    }

    @Override
    public Compressor copy(long stream) {
        return new AdaptiveQuantizer(method, params, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        step = 0;
        fittedAhead = false;
        refits = 0;
        lastDensity = null;
        fittedProxy = Double.NaN;
        fittedMultiplier = Double.NaN;
    }

    /**
     * The random stream's position and the levels ({@link LevelQuantizer}), then the step counter (8 bytes), the
     * variance proxy and p of the levels (two doubles, NaN when not fitted), so that the resumed run's diagnostics are
     * the same.
     */
    @Override
    public void saveState(DataOutput out) throws IOException {
        super.saveState(out);
        out.writeLong(step);
        out.writeDouble(fittedProxy);
        out.writeDouble(fittedMultiplier);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        super.restoreState(in);
        long saved = in.readLong();
        if (saved < 0) {
            throw new IllegalStateException("saved state holds step " + saved + ", not a count of steps");
        }
        step = saved;
        fittedAhead = false;
        fittedProxy = in.readDouble();
        fittedMultiplier = in.readDouble();
    }
}
