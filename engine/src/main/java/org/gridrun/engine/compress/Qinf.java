package org.gridrun.engine.compress;

import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;

/**
 * QSGD with the L∞ norm: each bucket is scaled by its largest magnitude and every value is rounded stochastically,
 * without bias, to one of {@code 2^bits} uniform levels in [-1, 1].
 *
 * <p>The levels are qsgd's ({@code linspace(-1, 1, 2^bits)}, no separate sign bit); the largest value of a bucket
 * lands exactly on ±1, so the others spread over the levels more evenly than under the L2 norm. Wire format and state
 * are those of {@code LevelQuantizer}: {@code 32·buckets + bits·n} bits; the random stream's position (24 bytes).
 */
public final class Qinf extends LevelQuantizer {
    /** The short name. */
    public static final String NAME = "qinf";

    Qinf(int bits, int bucketSize, boolean perLayer, boolean ignoreSmallBuckets, long seed, long stream) {
        super(bits, bucketSize, perLayer, ignoreSmallBuckets, Norm.LINF, uniformLevels(1 << bits), false, seed, stream);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        return bucketingConfig();
    }

    @Override
    public Compressor copy(long stream) {
        return new Qinf(bits, bucketSize, perLayer, ignoreSmallBuckets, seed, stream);
    }

    /** Registers {@code qinf} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                QuantizerKeys.bits("2^bits signed uniform levels in [-1, 1]"),
                QuantizerKeys.bucketSize("largest magnitude"), QuantizerKeys.PER_LAYER,
                QuantizerKeys.IGNORE_SMALL_BUCKETS);

        public Provider() {
            super(NAME, "bucketed L∞ norm, unbiased stochastic rounding to 2^bits uniform levels in [-1, 1]",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new Qinf(params.intIn("bits", 1, 8), params.positiveInt("bucket_size"), params.bool("per_layer"),
                    params.bool("ignore_small_buckets"), seed, 0);
        }
    }
}
