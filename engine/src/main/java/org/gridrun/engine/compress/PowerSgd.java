package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.backend.DevicePowerIteration;
import org.gridrun.engine.backend.LowRankShapes;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.random.CounterRng;

/**
 * PowerSGD (Vogels, Karimireddy and Jaggi, NeurIPS 2019): each weight matrix {@code M} is sent as the rank-r
 * factors of one step of power iteration, warm-started from the previous step's {@code Q}, with error feedback.
 *
 * <p>Which tensors are compressed is {@link LowRankPlan}'s rule; the step itself, two all-reduces per power
 * iteration, is {@link PowerSgdRounds}'s, run for all workers by {@link #step}. The first {@code Q} of every tensor
 * is standard normal, drawn from a stream shared by all workers ({@link #SHARED_STREAM} of the seed), so every
 * worker starts from the same one; from then on the all-reduces keep them equal. The residual is the method's own:
 * {@code error_feedback: true} adds nothing; {@code keep_residual: false} drops it (the paper's ablation).
 *
 * <p>{@code variant: paper} (the default) is the paper's Algorithm 1: per step {@code P = M·Q}, orthonormalised,
 * then {@code Q = Mᵀ·P}, both all-reduced and sent. {@code variant: alternating} is what the authors' package
 * ({@code epfml/powersgd}, {@code powersgd.py}) runs: {@code iters_per_step} half power iterations a step, counted
 * across steps and alternating sides, each warm-started from the other factor of the iteration before: on even ones
 * (the first of all among them) the kept {@code P} (standard normal at first) is orthonormalised and
 * {@code Q = mean(Mᵀ·P)} sent, on odd ones the kept {@code Q} is and {@code P = mean(M·Q)} sent; each iteration's
 * {@code P·Qᵀ} is added to the output and taken out of {@code M} before the next. With one iteration a step it sends
 * one factor a step, about half the bits of the paper's step, and two of its steps make one power iteration.
 *
 * <p>One worker sends, per compressed step, {@code 32·(raw values + iters_per_step·Σ (n + m)·r)} bits (alternating:
 * {@code Σ m·r} or {@code Σ n·r} per iteration in place of {@code Σ (n + m)·r}), and {@code 32·size} in the
 * {@code start_after} steps; {@link #encode} packs exactly that as float32, and
 * {@link #decode} rebuilds the output from it. State: the step count, the shared stream's position, the {@code Q}
 * factors (and the alternating variant's {@code P}) and the residual, all written by {@link #saveState}. A device that
 * runs the step ({@link #deviceShapes}; the trainer's on cuda) keeps the factors and the residual in this instance's
 * stead between steps; they are fetched before anything here reads them.
 */
public final class PowerSgd extends BaseCompressor implements CollectiveCompressor {
    /** The short name. */
    public static final String NAME = "powersgd";
    /** The random stream every worker's instance draws the first {@code Q} from. */
    public static final long SHARED_STREAM = -2;
    static final String PAPER = "paper";
    static final String ALTERNATING = "alternating";

    /** The parameter that turns the method's own error feedback off: {@code keep_residual: false}. */
    public static final String KEEP_RESIDUAL = "keep_residual";

    private final int rank;
    private final double minRate;
    private final long startAfter;
    private final int iterations;
    /** {@link #sendsLeft}'s answer, made once. */
    private boolean[] sides;
    private final boolean alternating;
    /** Whether the residual is kept and added to the next gradient (error feedback); else each step starts at 0. */
    private final boolean keepResidual;
    private final CounterRng shared;
    private final Orthonormalizer orthonormalizer = new Orthonormalizer();
    private final PowerSgd[] alone = {this};
    private final float[][] aloneGradient = new float[1][];
    private PowerSgd[] group = new PowerSgd[0];
    private TensorLayout layout;
    private LowRankPlan plan;
    private long steps;
    /** The Q factors, kept by a device while it runs the steps ({@link #factorsToUpload}). */
    private final ResidualMemory q = new ResidualMemory();
    /** The alternating variant's P factors, kept by a device while it runs the steps. */
    private final ResidualMemory p = new ResidualMemory();
    /** The residual, kept by a device while it runs the steps. */
    private final ResidualMemory residual = new ResidualMemory();
    private float[] left = new float[0];
    private float[] sentLeft = new float[0];
    private float[] sentRight = new float[0];
    private float[] row = new float[0];
    private float[] decoded = new float[0];
    /** The alternating variant's orthonormalised kept factors of its step's first iteration, for decode. */
    private float[] firstKept = new float[0];
    private long sentBits;
    private boolean lastCompressed;
    /** The alternating variant's count of iterations before its last step's first. */
    private long lastFirst;
    private int lastLength = -1;

    PowerSgd(int rank, double minRate, long startAfter, int iterations, boolean alternating, boolean keepResidual,
             long seed, long stream) {
        super(seed, stream);
        this.keepResidual = keepResidual;
        this.rank = rank;
        this.minRate = minRate;
        this.startAfter = startAfter;
        this.iterations = iterations;
        this.alternating = alternating;
        this.shared = new CounterRng(seed, SHARED_STREAM);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("rank", (long) rank);
        config.put("min_compression_rate", minRate);
        config.put("start_after", startAfter);
        config.put("iters_per_step", (long) iterations);
        config.put("variant", alternating ? ALTERNATING : PAPER);
        config.put(KEEP_RESIDUAL, keepResidual);
        config.put(ErrorFeedback.PARAMETER, keepResidual);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_REDUCE;
    }

    @Override
    public void bind(TensorLayout layout) {
        this.layout = layout;
        this.plan = null;
    }

    @Override
    public void step(CollectiveCompressor[] workers, float[][] gradients, float[] averaged) {
        PowerSgd[] group = group(workers, gradients.length);
        for (int w = 0; w < group.length; w++) {
            checkRange(gradients[w], 0, averaged.length);
            group[w].prepare(averaged.length);
        }
        PowerSgdRounds.run(group, gradients, 0, averaged, null);
    }

    /** The workers as instances of this class, checked to be one group with this instance among them. */
    private PowerSgd[] group(CollectiveCompressor[] workers, int gradients) {
        if (workers.length == 0 || workers.length != gradients) {
            throw new IllegalArgumentException(workers.length + " workers for " + gradients + " gradients");
        }
        if (group.length != workers.length) {
            group = new PowerSgd[workers.length];
        }
        boolean member = false;
        for (int w = 0; w < workers.length; w++) {
            if (!(workers[w] instanceof PowerSgd p) || !sameRun(p)) {
                throw new IllegalArgumentException("worker " + w + " is not a " + this + " of seed " + seed
                        + " at step " + steps + ": " + workers[w]);
            }
            group[w] = p;
            member |= p == this;
        }
        if (!member) {
            throw new IllegalArgumentException("step must be called on one of the workers");
        }
        return group;
    }

    private boolean sameRun(PowerSgd p) {
        return p.rank == rank && p.minRate == minRate && p.startAfter == startAfter && p.iterations == iterations
                && p.alternating == alternating && p.seed == seed && p.steps == steps;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        prepare(length);
        if (decoded.length != length) {
            decoded = new float[length];
        }
        long values = compressing() ? valuesSent(firstIteration()) : length;
        Payload payload = payload(32 * values, 0, length);
        aloneGradient[0] = gradient;
        PowerSgdRounds.run(alone, aloneGradient, offset, decoded, payload.bytes());
        aloneGradient[0] = null;
        lastLength = length;
        return payload;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int n = payload.elements();
        checkRange(out, offset, n);
        long values = lastCompressed ? valuesSent(lastFirst) : n;
        if (n != lastLength || payload.bits() != 32 * values) {
            throw new IllegalArgumentException("not a payload of this " + this + " instance's last encode: "
                    + payload);
        }
        PowerSgdRounds.decode(this, payload.bytes(), lastCompressed, lastFirst, out, offset);
    }

    /** The values a compressed step sends; {@code first}: the alternating variant's iterations before the step. */
    long valuesSent(long first) {
        if (!alternating) {
            return plan.valuesSent(iterations);
        }
        long values = plan.rawValues();
        for (int i = 0; i < iterations; i++) {
            values += left(first + i) ? plan.pSize() : plan.qSize();
        }
        return values;
    }

    /** The alternating variant's iterations before the coming step: those of the compressed steps before it. */
    long firstIteration() {
        return (steps - startAfter) * iterations;
    }

    /** Whether the alternating variant's iteration {@code i} (counted over all steps) sends P; else it sends Q. */
    static boolean left(long i) {
        return i % 2 == 1;
    }

    boolean alternating() {
        return alternating;
    }

    /** Sizes the buffers for gradients of {@code length} values, checking restored state against them. */
    private void prepare(int length) {
        plan(length);
        hostResidual(length);
        checkFactors(q.current());
    }

    /** Checks that {@code q} is none or of the plan's size. */
    private void checkFactors(float[] q) {
        if (q.length != 0 && q.length != plan.qSize()) {
            throw new IllegalStateException("the saved Q factors have " + q.length + " values; this layout needs "
                    + plan.qSize());
        }
    }

    /** The residual on the host (fetched where a device kept it), zeros at first, checked against {@code length}. */
    private float[] hostResidual(int length) {
        float[] values = residual.current();
        if (values.length == 0) {
            values = new float[length];
            residual.replace(values);
        } else if (values.length != length) {
            throw new IllegalStateException("the saved residual has " + values.length + " values; gradients have "
                    + length);
        }
        return values;
    }

    /** The plan of gradients of {@code length} values, and the buffers of the host's step. */
    private void plan(int length) {
        if (plan == null || plan.size() != length) {
            plan = new LowRankPlan(layout != null && layout.size() == length ? layout : TensorLayout.flat(length),
                    rank, minRate);
            left = new float[plan.maxLeft()];
            firstKept = new float[alternating ? Math.max(plan.pSize(), plan.qSize()) : 0];
            sentLeft = new float[plan.maxLeft()];
            sentRight = new float[plan.maxRight()];
            row = new float[plan.maxColumns()];
        }
    }

    /**
     * The shapes of the step for a device that runs it ({@link DevicePowerIteration}), for {@code workers} workers'
     * gradients of {@code length} values.
     */
    public LowRankShapes deviceShapes(int length, int workers) {
        plan(length);
        int count = plan.tensors();
        int[] offsets = new int[count];
        int[] rows = new int[count];
        int[] columns = new int[count];
        int[] ranks = new int[count];
        int[] qOffsets = new int[count];
        int[] pOffsets = new int[count];
        for (int t = 0; t < count; t++) {
            offsets[t] = plan.offset(t);
            rows[t] = plan.rows(t);
            columns[t] = plan.columns(t);
            ranks[t] = plan.rank(t);
            qOffsets[t] = plan.qOffset(t);
            pOffsets[t] = plan.pOffset(t);
        }
        return new LowRankShapes(length, workers, iterations, alternating, keepResidual, offsets, rows, columns, ranks,
                qOffsets, plan.qSize(), pOffsets, alternating ? plan.pSize() : 0);
    }

    /**
     * Where a device step's iterations send P (the alternating variant's odd ones, counted over all steps); an array
     * of this instance's, rewritten by each call.
     */
    public boolean[] sendsLeft() {
        if (sides == null) {
            sides = new boolean[iterations];
        }
        for (int i = 0; alternating && i < iterations; i++) {
            sides[i] = left(firstIteration() + i);
        }
        return sides;
    }

    /** Whether the coming step compresses; a device step of {@link #deviceShapes} asks before it runs. */
    public boolean compressesNext() {
        return compressing();
    }

    /**
     * Before a compressed device step: the Q factors the device must upload, drawn first where there are none as the
     * host step draws them; null where {@code device} keeps them already.
     */
    public float[] factorsToUpload(int length, ResidualFeedback.DeviceResidual device) {
        if (q.isOn(device)) {
            return null;
        }
        plan(length);
        checkFactors(q.current());
        return drawFactorsIfNone();
    }

    /**
     * Before a compressed device step of the alternating variant, after {@link #factorsToUpload}: the P factors the
     * device must upload; null where {@code device} keeps them or the variant keeps none.
     */
    public float[] leftFactorsToUpload(ResidualFeedback.DeviceResidual device) {
        return !alternating || p.isOn(device) ? null : p.current();
    }

    /** Before a compressed device step: the residual the device must upload; null where {@code device} keeps it. */
    public float[] residualToUpload(int length, ResidualFeedback.DeviceResidual device) {
        return residual.isOn(device) ? null : hostResidual(length);
    }

    /**
     * After a device step of gradients of {@code length} values: counts what this worker sent, as the host step
     * does, and, where it compressed, records that the device keeps Q ({@code factors}), the alternating variant's P
     * ({@code leftFactors}) and the residual ({@code kept}).
     */
    public void afterDeviceStep(int length, boolean compressed, ResidualFeedback.DeviceResidual factors,
                                ResidualFeedback.DeviceResidual leftFactors, ResidualFeedback.DeviceResidual kept) {
        if (compressed) {
            q.keptBy(factors);
            if (alternating) {
                p.keptBy(leftFactors);
            }
            residual.keptBy(kept);
        }
        finishStep(compressed ? valuesSent(firstIteration()) : length, compressed);
    }

    /** Whether the coming step compresses ({@code start_after} steps have passed). */
    boolean compressing() {
        return steps >= startAfter;
    }

    /**
     * Draws the first factor if there is none (Q; the alternating variant's P, whose first iteration starts from it),
     * then turns the residual into {@code M = gradient + residual}.
     */
    void startStep(float[] gradient, int offset) {
        drawFactorsIfNone();
        float[] residual = residual();
        if (!keepResidual) {
            java.util.Arrays.fill(residual, 0f);
        }
        for (int i = 0; i < residual.length; i++) {
            residual[i] += gradient[offset + i];
        }
    }

    /** Draws the first factor where there is none; returns the Q factors. */
    private float[] drawFactorsIfNone() {
        if (q.current().length == 0) {
            q.replace(new float[plan.qSize()]);
            p.replace(new float[alternating ? plan.pSize() : 0]);
            fillStandardNormal(alternating ? p.current() : q.current());
        }
        return q.current();
    }

    /** Box-Muller on the shared stream, with StrictMath so that every machine draws the same Q. */
    private void fillStandardNormal(float[] values) {
        for (int i = 0; i < values.length; i += 2) {
            double radius = StrictMath.sqrt(-2 * StrictMath.log(1 - shared.nextDouble()));
            double angle = 2 * Math.PI * shared.nextDouble();
            values[i] = (float) (radius * StrictMath.cos(angle));
            if (i + 1 < values.length) {
                values[i + 1] = (float) (radius * StrictMath.sin(angle));
            }
        }
    }

    void finishStep(long valuesSent, boolean compressed) {
        sentBits = 32 * valuesSent;
        lastFirst = firstIteration();
        lastCompressed = compressed;
        steps++;
    }

    LowRankPlan plan() {
        return plan;
    }

    int iterations() {
        return iterations;
    }

    /** {@code M} during a step, the residual between steps (a view). */
    float[] residual() {
        return residual.current();
    }

    /** The right factors of all compressed tensors (a view). */
    float[] q() {
        return q.current();
    }

    /** The left factors of all compressed tensors, kept between steps by the alternating variant (a view). */
    float[] p() {
        return p.current();
    }

    /** The alternating variant's kept factors as its last step's first iteration orthonormalised them (a view). */
    float[] firstKept() {
        return firstKept;
    }

    /** This worker's copy of the all-reduced, orthonormalised left factor of the tensor at hand. */
    float[] left() {
        return left;
    }

    /** This worker's own {@code M·Q}, its part of the first all-reduce. */
    float[] sentLeft() {
        return sentLeft;
    }

    /** This worker's own {@code Mᵀ·P}, its part of the second all-reduce. */
    float[] sentRight() {
        return sentRight;
    }

    /** A row of {@code P·Qᵀ}. */
    float[] row() {
        return row;
    }

    Orthonormalizer orthonormalizer() {
        return orthonormalizer;
    }

    @Override
    public long sentBits() {
        return sentBits;
    }

    @Override
    public long sentBytes() {
        return sentBits / 8;
    }

    @Override
    public Compressor copy(long stream) {
        return new PowerSgd(rank, minRate, startAfter, iterations, alternating, keepResidual, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        shared.seek(0);
        steps = 0;
        q.replace(new float[0]);
        p.replace(new float[0]);
        residual.replace(new float[0]);
        sentBits = 0;
        lastCompressed = false;
        lastLength = -1;
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        out.writeLong(stream);
        out.writeLong(steps);
        shared.saveState(out);
        StateIo.writeFloats(out, q.current());
        StateIo.writeFloats(out, residual.current());
        if (alternating) {
            StateIo.writeFloats(out, p.current());
        }
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        long savedStream = in.readLong();
        if (savedStream != stream) {
            throw new IllegalStateException("saved PowerSGD state is of worker stream " + savedStream
                    + "; this instance has stream " + stream);
        }
        long savedSteps = in.readLong();
        if (savedSteps < 0) {
            throw new IllegalStateException("saved PowerSGD step count is negative: " + savedSteps);
        }
        steps = savedSteps;
        shared.restoreState(in);
        q.replace(StateIo.readFloats(in, "PowerSGD Q factors"));
        residual.replace(StateIo.readFloats(in, "PowerSGD residual"));
        p.replace(alternating ? StateIo.readFloats(in, "PowerSGD P factors") : new float[0]);
        lastLength = -1;
    }

    /** Registers {@code powersgd} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("rank", ValueType.INT, 2L,
                        "rank r of the factors P (n×r) and Q (m×r) sent for each n×m weight matrix"),
                new ConfigKey("min_compression_rate", ValueType.DOUBLE, 2.0,
                        "send a matrix raw unless n·m / ((n + m)·r) is at least this (1-D tensors always go raw)"),
                new ConfigKey("start_after", ValueType.INT, 0L,
                        "steps of plain uncompressed all-reduce before compression starts"),
                new ConfigKey("iters_per_step", ValueType.INT, 1L,
                        "power iterations per step; each sends another rank-r approximation of what is left "
                                + "(alternating: half iterations, one factor each)"),
                new ConfigKey("variant", ValueType.STRING, PAPER,
                        "paper (Algorithm 1: P and Q computed and sent every step) or alternating (the authors' "
                                + "package: Q or P in turn, each warm-started from the other, one factor sent per "
                                + "iteration)"),
                new ConfigKey(KEEP_RESIDUAL, ValueType.BOOL, true,
                        "keep what the approximation missed and add it to the next gradient (error feedback, the "
                                + "paper's method); false: each step approximates its gradient alone (the paper's "
                                + "ablation without error feedback)"));

        public Provider() {
            super(NAME,
                    "PowerSGD (Vogels et al., NeurIPS 2019): rank-r power iteration with warm start and error feedback",
                    Aggregation.ALL_REDUCE, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            int rank = atLeast(params, "rank", 1);
            double minRate = params.doubleValue("min_compression_rate");
            if (!(minRate >= 1) || Double.isInfinite(minRate)) {
                throw new ConfigException("min_compression_rate must be at least 1, found "
                        + ValueType.show(params.values().get("min_compression_rate")));
            }
            long startAfter = params.longValue("start_after");
            if (startAfter < 0) {
                throw new ConfigException("start_after must not be negative, found " + startAfter);
            }
            String variant = params.string("variant");
            if (!variant.equals(PAPER) && !variant.equals(ALTERNATING)) {
                throw new ConfigException("variant must be " + PAPER + " or " + ALTERNATING + ", found " + variant);
            }
            int iterations = atLeast(params, "iters_per_step", 1);
            return new PowerSgd(rank, minRate, startAfter, iterations, variant.equals(ALTERNATING),
                    params.bool(KEEP_RESIDUAL), seed, 0);
        }

        private static int atLeast(Settings params, String name, int min) {
            long v = params.longValue(name);
            if (v < min || v > Integer.MAX_VALUE) {
                throw new ConfigException(name + " must be " + (v < min ? "at least " + min : "at most "
                        + Integer.MAX_VALUE) + ", found " + v);
            }
            return (int) v;
        }
    }
}
