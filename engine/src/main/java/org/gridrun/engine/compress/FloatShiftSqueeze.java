package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;

/**
 * S2FP8 (shifted and squeezed 8-bit float): per tensor, the magnitudes are moved in the log domain so that they
 * fill E5M2's range, then cast to E5M2.
 *
 * <p>With {@code y = log2|x|} over the tensor's nonzero finite values, the squeeze {@code α} and shift {@code β}
 * solve {@code α·max(y) + β = 15} and {@code α·mean(y) + β = 0}: {@code α = 15/(max(y) − mean(y))},
 * {@code β = −α·mean(y)}. A value is sent as {@code sign(x)·2^(α·y + β)} in E5M2 ({@link FloatFormat#E5M2}) and
 * decoded as {@code sign·2^((log2|x'| − β)/α)}. When {@code max(y) = mean(y)} (one magnitude only) the squeeze is
 * 1 and the shift {@code −mean(y)}, so every value maps to 1; a tensor without nonzero finite values has
 * {@code α = 1, β = 0}. Zero stays zero, NaN NaN; values whose {@code α·y + β} falls below E5M2's smallest
 * subnormal ({@code −16}) become zero, as in the paper.
 *
 * <p>Tensors come from {@link #bind}; an unbound instance, or one given a length other than the layout's, treats
 * the gradient as one tensor. {@code rounding} defaults to {@code stochastic}, as for the other float formats: the
 * trainer's schema has one default per key name, so a shared key must not change its default between methods;
 * {@code nearest} is the paper's choice. Stochastic rounding is unbiased in the shifted domain only, not after the
 * nonlinear decoding.
 *
 * <p>Wire format: per tensor {@code α} then {@code β} as float32, all tensors first, then one 8-bit E5M2 code per
 * value: {@code 64·T + 8·n} bits. {@code α} and {@code β} are per worker, so payloads are gathered. State: the
 * position of its random stream (24 bytes).
 */
public final class FloatShiftSqueeze extends RandomizedCompressor {
    /** The short name. */
    public static final String NAME = "s2fp8";

    private static final FloatFormat E5M2 = FloatFormat.E5M2;

    private final boolean stochastic;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private int[] bounds;
    private final int[] flat = new int[2];

    FloatShiftSqueeze(boolean stochastic, long seed, long stream) {
        super(seed, stream);
        this.stochastic = stochastic;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(FloatCast.ROUNDING, stochastic ? "stochastic" : "nearest");
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    @Override
    public void bind(TensorLayout layout) {
        List<TensorLayout.Tensor> tensors = layout.tensors();
        bounds = new int[tensors.size() + 1];
        for (int t = 0; t < tensors.size(); t++) {
            bounds[t + 1] = tensors.get(t).offset() + tensors.get(t).size();
        }
    }

    /** Tensor boundaries {@code 0 = b_0 < … < b_T = length}: the bound layout's, or one tensor. */
    private int[] bounds(int length) {
        if (bounds != null && bounds[bounds.length - 1] == length) {
            return bounds;
        }
        flat[1] = length;
        return flat;
    }

    /** The exact payload size for {@code length} values in {@code tensors} tensors. */
    private static long payloadBits(int tensors, int length) {
        return 64L * tensors + 8L * length;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        int[] b = bounds(length);
        int tensors = b.length - 1;
        Payload p = payload(payloadBits(tensors, length), length);
        byte[] bytes = p.bytes();
        packer.reset(bytes, 64L * tensors);
        for (int t = 0; t < tensors; t++) {
            int start = offset + b[t];
            int end = offset + b[t + 1];
            fit(gradient, start, end, bytes, t);
            float alpha = LittleEndian.getFloat(bytes, 8 * t);
            float beta = LittleEndian.getFloat(bytes, 8 * t + 4);
            for (int i = start; i < end; i++) {
                packer.write(E5M2.encode(shift(gradient[i], alpha, beta), stochastic ? rng.nextLong() >>> 32 : -1L),
                        8);
            }
        }
        packer.flush();
        return p;
    }

    /** Writes the tensor's {@code α} and {@code β} as float32 at {@code bytes[8t]}. */
    private static void fit(float[] g, int start, int end, byte[] bytes, int t) {
        double sum = 0;
        double max = Double.NEGATIVE_INFINITY;
        int count = 0;
        for (int i = start; i < end; i++) {
            if (g[i] != 0f && Float.isFinite(g[i])) {
                double y = log2(Math.abs(g[i]));
                sum += y;
                max = Math.max(max, y);
                count++;
            }
        }
        double mean = count == 0 ? 0 : sum / count;
        double alpha = count == 0 || max <= mean ? 1 : 15 / (max - mean);
        LittleEndian.putFloat(bytes, 8 * t, (float) alpha);
        LittleEndian.putFloat(bytes, 8 * t + 4, (float) (count == 0 ? 0 : -alpha * mean));
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    private static float shift(float x, float alpha, float beta) {
        if (x == 0f || Float.isNaN(x)) {
            return x;
        }
        float m = (float) Math.pow(2, alpha * log2(Math.abs(x)) + beta);
        return x < 0 ? -m : m;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        int[] b = bounds(length);
        int tensors = b.length - 1;
        if (payload.bits() != payloadBits(tensors, length)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        byte[] bytes = payload.bytes();
        reader.reset(bytes, 64L * tensors);
        for (int t = 0; t < tensors; t++) {
            double alpha = LittleEndian.getFloat(bytes, 8 * t);
            double beta = LittleEndian.getFloat(bytes, 8 * t + 4);
            for (int i = b[t]; i < b[t + 1]; i++) {
                float v = E5M2.decode(reader.read(8));
                float m = v == 0f || Float.isNaN(v) ? v : (float) Math.pow(2, (log2(Math.abs(v)) - beta) / alpha);
                out[offset + i] = v < 0f ? -m : m;
            }
        }
    }

    @Override
    public Compressor copy(long stream) {
        return new FloatShiftSqueeze(stochastic, seed, stream);
    }

    /** Registers {@code s2fp8} and declares its parameter. */
    public static final class Provider implements CompressorProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(FloatCast.roundingKey("stochastic"));

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String summary() {
            return "S2FP8: per-tensor log-domain shift and squeeze into E5M2, 8 bits per value + 64 per tensor";
        }

        @Override
        public Aggregation aggregation() {
            return Aggregation.ALL_GATHER;
        }

        @Override
        public List<ConfigKey> parameters() {
            return PARAMETERS;
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new FloatShiftSqueeze(FloatCast.stochastic(params), seed, 0);
        }
    }
}
