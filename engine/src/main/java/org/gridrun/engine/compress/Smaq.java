package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * SmaQ: values are standardised by the vector's mean and standard deviation; those within one deviation get a
 * 6-bit code, the outliers an 8-bit one, each rounded stochastically.
 *
 * <p>With {@code μ} and {@code σ} (population standard deviation) of the whole vector, or of {@code num_samples}
 * values drawn uniformly with replacement when {@code num_samples > 0}, each value has {@code z = (x − μ)/σ}.
 * A {@code b}-bit code is a flag bit, {@code b − 2} magnitude bits and a sign bit, with scale
 * {@code (2^(b−2) − 1)/range}:
 * <ul>
 *   <li>{@code |z| ≤ 1}: flag 0, 6 bits, magnitude {@code |z|·15} (range 1, scale 15);</li>
 *   <li>{@code |z| > 1}: flag 1, 8 bits, magnitude {@code (|z| − 1)·42} (range 1.5, scale 63/1.5 = 42), so outliers
 *       reach {@code |z| = 2.5}; beyond that they saturate to 2.5 (not unbiased there).</li>
 * </ul>
 * The magnitude is rounded stochastically to a neighbouring integer, without bias, and decodes to
 * {@code μ ± σ·|z|}. A zero or non-finite {@code σ} encodes every value as {@code z = 0} (decoding to {@code μ}).
 *
 * <p>Wire format: {@code μ} and {@code σ} as float32 (64 bits), then one record per value in order, packed bit by bit
 * least significant bit first: the flag, then the magnitude, then the sign (1 for negative). A payload of {@code n}
 * values with {@code k} outliers holds exactly {@code 64 + 6(n − k) + 8k} bits, so its length varies with the data
 * and a new payload is allocated whenever it changes. Statistics are per worker: payloads are gathered.
 *
 * <p>State: the position of its random stream (24 bytes).
 */
public final class Smaq extends RandomizedCompressor {
    /** The short name. */
    public static final String NAME = "smaq";

    private static final int MAIN_SCALE = 15;
    private static final int OUTLIER_SCALE = 42;
    private static final float OUTLIER_RANGE = 1.5f;

    private final int numSamples;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private float[] z = new float[0];
    private float mean;
    private float std;

    Smaq(int numSamples, long seed, long stream) {
        super(seed, stream);
        this.numSamples = numSamples;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("num_samples", (long) numSamples);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        if (z.length != length) {
            z = new float[length];
        }
        statistics(gradient, offset, length);
        boolean usable = std > 0f && Float.isFinite(std);
        long bits = 64;
        for (int i = 0; i < length; i++) {
            z[i] = usable ? (gradient[offset + i] - mean) / std : 0f;
            bits += Math.abs(z[i]) > 1f ? 8 : 6;
        }
        Payload p = payload(bits, length);
        packer.reset(p.bytes(), 0);
        packer.writeFloat(mean);
        packer.writeFloat(std);
        for (int i = 0; i < length; i++) {
            float a = Math.abs(z[i]);
            int sign = z[i] < 0f ? 1 : 0;
            if (a > 1f) {
                int m = round(Math.min(a - 1f, OUTLIER_RANGE) * OUTLIER_SCALE, 63);
                packer.write(1 | m << 1 | sign << 7, 8);
            } else {
                packer.write(round(a * MAIN_SCALE, MAIN_SCALE) << 1 | sign << 5, 6);
            }
        }
        packer.flush();
        return p;
    }

    /** {@code floor(t)} or {@code floor(t) + 1}, the latter with probability {@code t − floor(t)}; at most max. */
    private int round(float t, int max) {
        return Math.min((int) (t + rng.nextDouble()), max);
    }

    /** Mean and population standard deviation, of all values or of {@code numSamples} drawn with replacement. */
    private void statistics(float[] g, int offset, int length) {
        int count = numSamples > 0 && length > 0 ? numSamples : length;
        double sum = 0;
        double squares = 0;
        for (int k = 0; k < count; k++) {
            double v = g[offset + (numSamples > 0 ? rng.nextInt(length) : k)];
            sum += v;
            squares += v * v;
        }
        double m = count == 0 ? 0 : sum / count;
        mean = (float) m;
        std = (float) Math.sqrt(count == 0 ? 0 : Math.max(squares / count - m * m, 0));
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        reader.reset(payload.bytes(), 0);
        float mean = reader.readFloat();
        float std = reader.readFloat();
        for (int i = 0; i < length; i++) {
            float a;
            int sign;
            if (reader.read(1) == 0) {
                int code = reader.read(5);
                a = (code & 15) / (float) MAIN_SCALE;
                sign = code >>> 4;
            } else {
                int code = reader.read(7);
                a = 1f + (code & 63) / (float) OUTLIER_SCALE;
                sign = code >>> 6;
            }
            out[offset + i] = mean + std * (sign == 1 ? -a : a);
        }
    }

    @Override
    public Compressor copy(long stream) {
        return new Smaq(numSamples, seed, stream);
    }

    /** Registers {@code smaq} and declares its parameter. */
    public static final class Provider implements CompressorProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("num_samples", ValueType.INT, 0L,
                        "values sampled (with replacement) for the mean and standard deviation; 0 uses all"));

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String summary() {
            return "SmaQ: standardised values, 6-bit codes within one deviation, 8-bit outlier codes up to 2.5";
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
            long samples = params.longValue("num_samples");
            if (samples < 0 || samples > Integer.MAX_VALUE) {
                throw new ConfigException("num_samples must be in [0, " + Integer.MAX_VALUE + "], found " + samples);
            }
            return new Smaq((int) samples, seed, 0);
        }
    }
}
