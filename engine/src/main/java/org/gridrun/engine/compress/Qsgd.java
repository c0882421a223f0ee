package org.gridrun.engine.compress;

import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;

/**
 * QSGD with bucketing: each bucket is scaled by its L2 norm and every value is rounded stochastically, without
 * bias, to one of {@code 2^bits} uniform levels in [-1, 1].
 *
 * <p>The levels follow the ALQ/AMQ seed: {@code linspace(-1, 1, 2^bits)}, signed, with no separate sign bit (so
 * 3-bit levels have no zero). A value {@code g} of a bucket with norm {@code ‖b‖} has {@code r = g/‖b‖} in [-1, 1],
 * lying between two neighbouring levels {@code l_j ≤ r ≤ l_{j+1}}; it becomes {@code l_{j+1}} with probability
 * {@code (r − l_j)/(l_{j+1} − l_j)} and {@code l_j} otherwise, so the decoded value {@code ‖b‖·l} has expectation
 * {@code g} and variance at most {@code ‖b‖²·s²/4}, where {@code s = 2/(2^bits − 1)} is the level spacing.
 *
 * <p>Wire format: the norms of all buckets first, as little-endian float32, then one {@code bits}-bit level index
 * per value, packed contiguously least significant bit first with no padding between buckets (the last bucket may
 * be shorter). A payload of {@code n} values in {@code B = ceil(n / bucket_size)} buckets holds exactly
 * {@code 32·B + bits·n} bits. With {@code per_layer} and a bound layout the buckets restart at every tensor, so
 * {@code B} is the sum over tensors of {@code ceil(size / bucket_size)}; with {@code ignore_small_buckets} a bucket
 * shorter than the bucket size goes as float32 values instead (see {@code LevelQuantizer}). A bucket whose norm is
 * zero decodes to zeros. Norms differ per worker, so payloads are gathered, not summed.
 *
 * <p>Its only state is the position of its random stream, which {@link #saveState} writes (24 bytes). The
 * bucketing, rounding and packing are {@code LevelQuantizer}'s; qsgd is its uniform levels with the L2 norm.
 */
public final class Qsgd extends LevelQuantizer {
    /** The short name. */
    public static final String NAME = "qsgd";

    Qsgd(int bits, int bucketSize, boolean perLayer, boolean ignoreSmallBuckets, long seed, long stream) {
        super(bits, bucketSize, perLayer, ignoreSmallBuckets, Norm.L2, uniformLevels(1 << bits), false, seed, stream);
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
        return new Qsgd(bits, bucketSize, perLayer, ignoreSmallBuckets, seed, stream);
    }

    /** Registers {@code qsgd} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                QuantizerKeys.bits("2^bits signed uniform levels in [-1, 1]"), QuantizerKeys.bucketSize("L2 norm"),
                QuantizerKeys.PER_LAYER, QuantizerKeys.IGNORE_SMALL_BUCKETS);

        public Provider() {
            super(NAME, "bucketed L2 norm, unbiased stochastic rounding to 2^bits uniform levels in [-1, 1]",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new Qsgd(params.intIn("bits", 1, 8), params.positiveInt("bucket_size"), params.bool("per_layer"),
                    params.bool("ignore_small_buckets"), seed, 0);
        }
    }
}
