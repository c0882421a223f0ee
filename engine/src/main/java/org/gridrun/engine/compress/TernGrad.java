package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * TernGrad: each bucket is scaled by its largest magnitude and every value is rounded stochastically, without bias,
 * to one of the levels {-1, 0, 1}, sent as a 2-bit index.
 *
 * <p>With {@code clip}, every value of a bucket is first clipped to {@code [−2.5σ, 2.5σ]}, σ the standard deviation
 * of the bucket's values (TernGrad's gradient clipping): the scale shrinks, so fewer values round to zero, at the
 * price of a bias on the clipped ones (the decoding is unbiased for the clipped bucket). A bucket with σ = 0 (one
 * value, or all equal) clips to zeros. Wire format and state are those of {@code LevelQuantizer}:
 * {@code 32·buckets + 2·n} bits; the random stream's position (24 bytes).
 */
public final class TernGrad extends LevelQuantizer {
    /** The short name. */
    public static final String NAME = "trn";

    /** The clipping bound in standard deviations. */
    static final double CLIP_SIGMAS = 2.5;

    private final boolean clip;

    TernGrad(int bucketSize, boolean perLayer, boolean ignoreSmallBuckets, boolean clip, long seed, long stream) {
        super(2, bucketSize, perLayer, ignoreSmallBuckets, Norm.LINF, new double[] {-1, 0, 1}, false, seed, stream);
        this.clip = clip;
    }

    @Override
    protected double clipSigmas() {
        return clip ? CLIP_SIGMAS : 0;
    }

    @Override
    protected float clipBound(float[] g, int start, int end) {
        if (!clip) {
            return Float.POSITIVE_INFINITY;
        }
        // both sums in ChainSums' order, which a GPU block follows (quantize.cu)
        double mean = ChainSums.chains(g, start, end, ChainSums.Term.PLAIN) / (end - start);
        double squares = ChainSums.deviationSquares(g, start, end, mean);
        return (float) (CLIP_SIGMAS * Math.sqrt(squares / (end - start)));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("bucket_size", (long) bucketSize);
        config.put("per_layer", perLayer);
        config.put("ignore_small_buckets", ignoreSmallBuckets);
        config.put("clip", clip);
        return config;
    }

    @Override
    public Compressor copy(long stream) {
        return new TernGrad(bucketSize, perLayer, ignoreSmallBuckets, clip, seed, stream);
    }

    /** Registers {@code trn} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(QuantizerKeys.bucketSize("largest magnitude"),
                QuantizerKeys.PER_LAYER, QuantizerKeys.IGNORE_SMALL_BUCKETS,
                new ConfigKey("clip", ValueType.BOOL, false,
                        "clip each bucket to 2.5 standard deviations of its values before scaling (TernGrad)"));

        public Provider() {
            super(NAME, "TernGrad: bucketed L∞ norm, unbiased stochastic rounding to {-1, 0, 1}, 2 bits per value",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new TernGrad(params.positiveInt("bucket_size"), params.bool("per_layer"),
                    params.bool("ignore_small_buckets"), params.bool("clip"), seed, 0);
        }
    }
}
