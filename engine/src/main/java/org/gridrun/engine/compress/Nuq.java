package org.gridrun.engine.compress;

import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * Non-uniform quantization with exponential levels: each bucket is scaled by its L2 norm and every value is rounded
 * stochastically, without bias, to one of the {@code 2^bits} levels {@code ±p^j}, {@code j = 0 … 2^(bits−1) − 1}.
 *
 * <p>{@code p} is {@code mul}, in (0, 1): levels crowd near zero, where most normalised values of a large bucket lie.
 * There is no zero level (the seed's convention): a value between {@code −p^jmax} and {@code p^jmax} rounds between
 * those two. Wire format and state are those of {@code LevelQuantizer}: {@code 32·buckets + bits·n} bits; the random
 * stream's position (24 bytes).
 */
public final class Nuq extends LevelQuantizer {
    /** The short name. */
    public static final String NAME = "nuq";

    private final double mul;

    Nuq(int bits, int bucketSize, boolean perLayer, boolean ignoreSmallBuckets, double mul, long seed,
                long stream) {
        super(bits, bucketSize, perLayer, ignoreSmallBuckets, Norm.L2, exponentialLevels(bits, mul), false, seed, stream);
        this.mul = mul;
    }

    /** The {@code 2^bits} levels {@code ±p^j}, sorted: {@code −1, −p, …, −p^jmax, p^jmax, …, p, 1}. */
    static double[] exponentialLevels(int bits, double p) {
        int half = 1 << (bits - 1);
        double[] levels = new double[2 * half];
        double power = 1;
        for (int j = 0; j < half; j++) {
            levels[j] = -power;
            levels[levels.length - 1 - j] = power;
            power *= p;
        }
        return levels;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = bucketingConfig();
        config.put("mul", mul);
        return config;
    }

    @Override
    public Compressor copy(long stream) {
        return new Nuq(bits, bucketSize, perLayer, ignoreSmallBuckets, mul, seed, stream);
    }

    /** Registers {@code nuq} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                QuantizerKeys.bits("2^bits exponential levels ±mul^j"), QuantizerKeys.bucketSize("L2 norm"),
                QuantizerKeys.PER_LAYER, QuantizerKeys.IGNORE_SMALL_BUCKETS,
                new ConfigKey("mul", ValueType.DOUBLE, 0.5,
                        "ratio p of exponential levels, in (0, 1) (the seed's nuq_mul)"));

        public Provider() {
            super(NAME, "bucketed L2 norm, unbiased stochastic rounding to 2^bits exponential levels ±mul^j",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            int bits = params.intIn("bits", 1, 8);
            int bucketSize = params.positiveInt("bucket_size");
            double mul = params.doubleValue("mul");
            if (!(mul > 0 && mul < 1)) {
                throw new ConfigException("mul must be in (0, 1), found " + params.values().get("mul"));
            }
            double[] levels = exponentialLevels(bits, mul);
            for (int j = 1; j < levels.length; j++) {
                if (!(levels[j] > levels[j - 1])) {
                    throw new ConfigException("mul must give " + levels.length + " distinct levels ±mul^j for bits "
                            + bits + ", found " + params.values().get("mul"));
                }
            }
            return new Nuq(bits, bucketSize, params.bool("per_layer"), params.bool("ignore_small_buckets"), mul, seed,
                    0);
        }
    }
}
