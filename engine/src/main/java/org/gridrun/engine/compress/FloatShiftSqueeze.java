package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.S2fp8Format;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.random.CounterRng;

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
 * position of its random stream (24 bytes). Stochastic rounding takes 32 random bits per value, two values per draw:
 * value {@code e} uses draw {@code e/2} of the step (high half for even {@code e}), so a large vector is encoded in
 * two halves at once with the payload of one thread.
 *
 * <p>Speed: every logarithm and power is {@link Log2}'s table-and-series one (within a few units in the last place
 * of a double of the exact functions, and the same bits on a GPU given its tables), the largest {@code log2|x|} is
 * the logarithm of the largest magnitude, and decoding is a 256-entry table per tensor.
 */
public final class FloatShiftSqueeze extends RandomizedCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "s2fp8";

    private static final FloatFormat E5M2 = FloatFormat.E5M2;

    private final boolean stochastic;
    private int[] bounds;
    private final int[] flat = new int[2];
    /** The device format's tensor bounds when none are bound: made once per length, never changed after. */
    private int[] deviceFlat = {0, 0};

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

    /** {@inheritDoc} The same draws as {@link #encode}: one for every two values when rounding stochastically. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        int[] b = bounds(length);
        if (b == flat) {
            if (deviceFlat[1] != length) {
                deviceFlat = new int[] {0, length};
            }
            b = deviceFlat;
        }
        long first = rng.counter();
        if (stochastic) {
            rng.seek(first + (length + 1L) / 2);
        }
        S2fp8Format format = new S2fp8Format(stochastic, b, Log2.deviceTables(), length);
        int tensors = b.length - 1;
        return Optional.of(new DevicePlan(format, CounterRng.keyOf(rng.seed(), rng.stream()), first,
                payloadBits(tensors, length), 64L * tensors));
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
        Payload p = payload(payloadBits(tensors, length), 64L * tensors, length);
        byte[] bytes = p.bytes();
        boolean parallel = Halves.worthIt(length);
        for (int t = 0; t < tensors; t++) {
            fit(gradient, offset + b[t], offset + b[t + 1], bytes, t);
        }
        long counter = rng.counter();
        if (stochastic) {
            rng.seek(counter + (length + 1L) / 2);
        }
        Halves.split(length, 2, parallel, (part, from, to) -> encodeRange(gradient, offset, b, from, to, bytes,
                counter));
        return p;
    }

    /**
     * Writes the codes of values {@code [from, to)}, {@code from} even, one byte each after the header; value
     * {@code e} rounds with the high 32 bits of draw {@code counter + e/2} when {@code e} is even, the low ones when
     * odd, whatever thread handles it.
     */
    private void encodeRange(float[] g, int offset, int[] b, int from, int to, byte[] bytes, long counter) {
        int header = 8 * (b.length - 1);
        int t = tensorOf(b, from);
        for (int e = from; e < to; t++) {
            int end = Math.min(to, b[t + 1]);
            double alpha = LittleEndian.getFloat(bytes, 8 * t);
            double beta = LittleEndian.getFloat(bytes, 8 * t + 4);
            for (; e < end; e++) {
                long uniform = -1L;
                if (stochastic) {
                    long r = rng.at(counter + (e >>> 1));
                    uniform = (e & 1) == 0 ? r >>> 32 : r & 0xFFFFFFFFL;
                }
                bytes[header + e] = (byte) E5M2.encode(shift(g[offset + e], alpha, beta), uniform);
            }
        }
    }

    /** The tensor holding value {@code e}: the last {@code t} with {@code b[t] ≤ e}. */
    private static int tensorOf(int[] b, int e) {
        int t = 0;
        while (b[t + 1] <= e) {
            t++;
        }
        return t;
    }

    /**
     * Writes the tensor's {@code α} and {@code β} as float32 at {@code bytes[8t]}. The sum of {@code log2|x|} over
     * the nonzero finite values follows {@link ChainSums#chains}' order (value {@code i} into chain
     * {@code i mod 128}, the chains meeting in its tree), as a GPU block sums it; logarithms are {@link Log2}'s.
     */
    private static void fit(float[] g, int start, int end, byte[] bytes, int t) {
        double[] chains = ChainSums.zeroedChains();
        int count = 0;
        int largest = 0;
        for (int i = start; i < end; i++) {
            int abs = Float.floatToRawIntBits(g[i]) & 0x7FFFFFFF;
            if (abs != 0 && abs < 0x7F800000) {
                chains[(i - start) & (ChainSums.CHAINS - 1)] += Log2.log2(Float.intBitsToFloat(abs));
                largest = Math.max(largest, abs);
                count++;
            }
        }
        double sum = ChainSums.tree(chains);
        double mean = count == 0 ? 0 : sum / count;
        double max = count == 0 ? 0 : Log2.log2(Float.intBitsToFloat(largest));
        double alpha = count == 0 || max <= mean ? 1 : 15 / (max - mean);
        LittleEndian.putFloat(bytes, 8 * t, (float) alpha);
        LittleEndian.putFloat(bytes, 8 * t + 4, (float) (count == 0 ? 0 : -alpha * mean));
    }

    /** {@code sign(x)·2^(α·log2|x| + β)}; zero and NaN unchanged. */
    private static float shift(float x, double alpha, double beta) {
        if (x == 0f || Float.isNaN(x)) {
            return x;
        }
        float m = (float) Log2.exp2(alpha * Log2.log2(Math.abs(x)) + beta);
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
        float[][] tables = new float[tensors][];
        for (int t = 0; t < tensors; t++) {
            tables[t] = table(LittleEndian.getFloat(bytes, 8 * t), LittleEndian.getFloat(bytes, 8 * t + 4));
        }
        Halves.split(length, 1, Halves.worthIt(length), (part, from, to) -> {
            int header = 8 * tensors;
            int t = tensorOf(b, from);
            for (int e = from; e < to; t++) {
                int end = Math.min(to, b[t + 1]);
                float[] table = tables[t];
                for (; e < end; e++) {
                    out[offset + e] = table[bytes[header + e] & 0xFF];
                }
            }
        });
    }

    /** The decoded value of each of the 256 codes under {@code α} and {@code β}: {@code sign·2^((log2|v| − β)/α)}. */
    private static float[] table(double alpha, double beta) {
        float[] table = new float[256];
        for (int code = 0; code < 256; code++) {
            float v = E5M2.decode(code);
            float m = v == 0f || Float.isNaN(v) ? v : (float) Log2.exp2((Log2.log2(Math.abs(v)) - beta) / alpha);
            table[code] = v < 0f ? -m : m;
        }
        return table;
    }

    @Override
    public Compressor copy(long stream) {
        return new FloatShiftSqueeze(stochastic, seed, stream);
    }

    /** Registers {@code s2fp8} and declares its parameter. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(FloatCast.roundingKey("stochastic"));

        public Provider() {
            super(NAME, "S2FP8: per-tensor log-domain shift and squeeze into E5M2, 8 bits per value + 64 per tensor",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new FloatShiftSqueeze(FloatCast.stochastic(params), seed, 0);
        }
    }
}
