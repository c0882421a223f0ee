package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * AC-SGD, "Adaptively Compressed SGD" (Yan et al., IEEE JSAC 2022), a baseline of the JointSQ paper: top-k
 * sparsification of the error-compensated gradient, the survivors quantized to a few bits, with a compression level
 * that adapts over the iterations under a fixed bit budget.
 *
 * <p><b>This is gridrun's reading of the method, not a transcription of the paper's algorithm</b>; the adaptation
 * rule below is ours, chosen to keep the paper's ingredients (sparsification and quantization together, degrees
 * that follow the gradient norm, a communication budget, error feedback) with a rule that is exact and reproducible.
 *
 * <p>Each step, for the vector {@code v} it is given (the gradient plus the error-feedback residual: the provider
 * always wraps this class in {@link ErrorFeedback}) of {@code n} values, with index width {@code w =}
 * {@link SparseFormat#indexWidth(int) max(1, ceil(log2 n))}:
 * <ol>
 *   <li>Budget: {@code k0 = min(n, max(1, ceil(ratio·n)))} values of {@code b0 = bits} bits give
 *       {@code T = k0·(w + b0)} bits per step.</li>
 *   <li>Adaptation ({@code adapt: true}): {@code R} is {@code ‖v‖₂} at the first step where it is positive and finite
 *       (then kept); at step {@code t}, {@code b_t = clamp(b0 + round(log2(R / ‖v_t‖₂)), 1, 8)}: one more bit for
 *       every halving of the norm below its first value, one fewer for every doubling above it; and
 *       {@code k_t = min(n, max(1, floor(T / (w + b_t))))}, so {@code k_t·(w + b_t) ≤ T}: precision is bought with
 *       fewer coordinates as the gradient shrinks late in training, coordinates with precision while it is large.
 *       A zero or non-finite norm keeps {@code b0}. With {@code adapt: false}, {@code b_t = b0} and
 *       {@code k_t = k0}.</li>
 *   <li>Selection: a threshold from {@code s = min(n, max(1, ceil(sample_ratio·n)))} magnitudes {@code |v_i|} at
 *       positions drawn uniformly with replacement: the smallest of their {@code max(1, ceil(s·k_t / n))} largest
 *       ({@link TopKSelector}). Every non-zero {@code v_i} at or above it is kept; when more than {@code k_t} are, the
 *       exact {@code k_t} largest of those; when fewer, the exact {@code k_t} largest of all (non-zero), as the
 *       authors' exact top-k would keep (a sample that overestimates the threshold no longer sends less).</li>
 *   <li>Quantization: the kept values are scaled by their largest magnitude {@code S} and each rounded
 *       stochastically, without bias, to one of the {@code 2^b_t} uniform levels {@code −1 + 2j/(2^b_t − 1)}.</li>
 * </ol>
 *
 * <p>Wire format, packed least significant bit first: {@code b_t − 1} in 3 bits; the kept count {@code k} in
 * {@link SparseFormat#countWidth(int) max(1, ceil(log2 (n + 1)))} bits; {@code S} as float32; the {@code k} indices,
 * ascending, {@code w} bits each; the {@code k} level indices, {@code b_t} bits each. Exactly
 * {@code 3 + countWidth(n) + 32 + k·(w + b_t)} bits; the receiver reads {@code b_t} and {@code k} from the payload.
 * Positions differ per worker, so payloads are gathered. State: the random stream's position and {@code R}; the
 * residual is the wrapper's.
 */
public final class AcSgd extends RandomizedCompressor {
    /** The short name. */
    public static final String NAME = "acsgd";

    private static final int BITS_WIDTH = 3;
    private static final int MAX_BITS = 8;

    private final double ratio;
    private final int bits;
    private final boolean adapt;
    private final double sampleRatio;
    private final TopKSelector selector = new TopKSelector();
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private float reference;
    private float[] sample = new float[0];
    private float[] candidates = new float[0];
    private int[] indices = new int[0];
    private int lastBits;

    AcSgd(double ratio, int bits, boolean adapt, double sampleRatio, long seed, long stream) {
        super(seed, stream);
        this.ratio = ratio;
        this.bits = bits;
        this.adapt = adapt;
        this.sampleRatio = sampleRatio;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ratio", ratio);
        config.put("bits", (long) bits);
        config.put("adapt", adapt);
        config.put("sample_ratio", sampleRatio);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    /** The budget's count {@code k0 = min(n, max(1, ceil(ratio·n)))}. */
    int baseKept(int n) {
        return (int) Math.min(n, Math.max(1, (long) Math.ceil(ratio * n)));
    }

    /** The bits per kept value for a vector of norm {@code norm}, under the reference norm so far. */
    int bitsFor(double norm) {
        if (!adapt || !(norm > 0 && Double.isFinite(norm)) || reference == 0f) {
            return bits;
        }
        long step = Math.round(Math.log(reference / norm) / Math.log(2));
        return (int) Math.max(1, Math.min(MAX_BITS, bits + step));
    }

    /** The most values {@code b}-bit levels may keep within the budget of a vector of {@code n} values. */
    int keptFor(int n, int b) {
        if (!adapt) {
            return baseKept(n);
        }
        int w = SparseFormat.indexWidth(n);
        long budget = (long) baseKept(n) * (w + bits);
        return (int) Math.min(n, Math.max(1, budget / (w + b)));
    }

    /** The exact payload size for {@code k} kept values of {@code b} bits among {@code n}. */
    static long payloadBits(int n, int k, int b) {
        return BITS_WIDTH + SparseFormat.countWidth(n) + 32 + (long) k * (SparseFormat.indexWidth(n) + b);
    }

    /** The bits per kept value of the latest payload (package-private, for tests). */
    int lastBits() {
        return lastBits;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        if (indices.length < length) {
            indices = new int[length];
            candidates = new float[length];
        }
        double norm = LevelQuantizer.Norm.L2.of(gradient, offset, offset + length, Float.POSITIVE_INFINITY);
        if (reference == 0f && norm > 0 && Double.isFinite(norm)) {
            reference = (float) norm;
        }
        int b = bitsFor(norm);
        int k = select(gradient, offset, length, length == 0 ? 0 : keptFor(length, b));
        float scale = 0f;
        for (int j = 0; j < k; j++) {
            scale = Math.max(scale, Math.abs(gradient[offset + indices[j]]));
        }
        Payload p = payload(payloadBits(length, k, b), payloadBits(length, k, 0), length);
        packer.reset(p.bytes(), 0);
        packer.write(b - 1, BITS_WIDTH);
        packer.write(k, SparseFormat.countWidth(length));
        packer.writeFloat(scale);
        int w = SparseFormat.indexWidth(length);
        for (int j = 0; j < k; j++) {
            packer.write(indices[j], w);
        }
        int top = (1 << b) - 1;
        for (int j = 0; j < k; j++) {
            float t = (gradient[offset + indices[j]] / scale + 1f) * 0.5f * top;
            int level = (int) (Math.min(Math.max(t, 0f), top) + (rng.nextLong() >>> 40) * 0x1.0p-24);
            packer.write(Math.min(level, top), b);
        }
        packer.flush();
        lastBits = b;
        return p;
    }

    /** Fills {@code indices[0 … k)} with the kept positions, ascending, and returns {@code k ≤ limit}. */
    private int select(float[] v, int offset, int n, int limit) {
        if (limit == 0) {
            return 0;
        }
        int s = (int) Math.min(n, Math.max(1, (long) Math.ceil(sampleRatio * n)));
        if (sample.length < s) {
            sample = new float[s];
        }
        for (int j = 0; j < s; j++) {
            sample[j] = v[offset + rng.nextInt(n)];
        }
        int sampleTop = (int) Math.min(s, Math.max(1, (long) Math.ceil((double) s * limit / n)));
        int[] chosen = selector.select(sample, 0, s, sampleTop);
        float threshold = Float.POSITIVE_INFINITY;
        for (int j = 0; j < sampleTop; j++) {
            threshold = Math.min(threshold, Math.abs(sample[chosen[j]]));
        }
        int count = 0;
        for (int i = 0; i < n; i++) {
            float x = v[offset + i];
            if (x != 0f && !(Math.abs(x) < threshold)) {
                indices[count] = i;
                candidates[count++] = x;
            }
        }
        if (count < limit) {
            int[] best = selector.select(v, offset, n, limit);
            count = 0;
            for (int j = 0; j < limit; j++) {
                indices[count] = best[j];
                count += v[offset + best[j]] != 0f ? 1 : 0;
            }
            return count;
        }
        if (count == limit) {
            return count;
        }
        int[] best = selector.select(candidates, 0, count, limit);
        for (int j = 0; j < limit; j++) {
            indices[j] = indices[best[j]];
        }
        return limit;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int n = payload.elements();
        checkRange(out, offset, n);
        reader.reset(payload.bytes(), 0);
        int b = reader.read(BITS_WIDTH) + 1;
        int k = reader.read(SparseFormat.countWidth(n));
        if (k > n || payload.bits() != payloadBits(n, k, b)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + n + " values: " + payload);
        }
        if (indices.length < k) {
            indices = new int[k];
        }
        float scale = reader.readFloat();
        java.util.Arrays.fill(out, offset, offset + n, 0f);
        int w = SparseFormat.indexWidth(n);
        for (int j = 0; j < k; j++) {
            int index = reader.read(w);
            if (index >= n) {
                throw new IllegalArgumentException("index " + index + " outside a gradient of " + n + " values");
            }
            indices[j] = index;
        }
        float spacing = 2f / ((1 << b) - 1);
        for (int j = 0; j < k; j++) {
            out[offset + indices[j]] = scale * (-1f + spacing * reader.read(b));
        }
    }

    @Override
    public Compressor copy(long stream) {
        return new AcSgd(ratio, bits, adapt, sampleRatio, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        reference = 0f;
    }

    /** The random stream's position (24 bytes), then the reference norm {@code R} (4 bytes, 0 before the first). */
    @Override
    public void saveState(DataOutput out) throws IOException {
        super.saveState(out);
        out.writeFloat(reference);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        super.restoreState(in);
        float saved = in.readFloat();
        if (!(saved >= 0 && Float.isFinite(saved))) {
            throw new IllegalStateException("saved state holds reference norm " + saved + ", not a norm");
        }
        reference = saved;
    }

    /** Registers {@code acsgd} and declares its parameters; its compressors always carry error feedback. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("ratio", ValueType.DOUBLE, 0.01,
                        "fraction of values the budget keeps at the base bits, in (0, 1]"),
                new ConfigKey("bits", ValueType.INT, 4L,
                        "base bits per kept value: 2^bits uniform levels in [-1, 1] times the largest kept magnitude, "
                                + "in [1, 8]"),
                new ConfigKey("adapt", ValueType.BOOL, true,
                        "trade bits against kept values as the gradient norm moves from its first value, within the "
                                + "budget ceil(ratio·n)·(index bits + bits)"),
                new ConfigKey("sample_ratio", ValueType.DOUBLE, 0.01,
                        "fraction of values sampled to estimate the top-k threshold, in (0, 1]"));

        public Provider() {
            super(NAME,
                    "AC-SGD (gridrun's reading): sampled top-k plus b-bit L∞ stochastic rounding, bits and k adapted "
                            + "to the norm under a bit budget, error feedback",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new ErrorFeedback(new AcSgd(SparseFormat.fraction(params, "ratio"), params.intIn("bits", 1, 8),
                    params.bool("adapt"), SparseFormat.fraction(params, "sample_ratio"), seed, 0));
        }
    }
}
