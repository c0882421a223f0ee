package org.gridrun.engine.compress;

import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.ValueType;

/** The parameters the bucketed level quantizers share, declared once so that their types and defaults agree. */
final class QuantizerKeys {
    private QuantizerKeys() {
    }

    /** Bits per value, in [1, 8]. */
    static ConfigKey bits(String levels) {
        return new ConfigKey("bits", ValueType.INT, 4L, "bits per value: " + levels + ", in [1, 8]");
    }

    /** Values per bucket. */
    static ConfigKey bucketSize(String norm) {
        return new ConfigKey("bucket_size", ValueType.INT, 8192L,
                "values per bucket; each bucket is scaled by its own " + norm + " (sent as float32)");
    }

    /** Whether buckets restart at every tensor (the trainer's key of the same name and type). */
    static final ConfigKey PER_LAYER = new ConfigKey("per_layer", ValueType.BOOL, false,
            "bucket each layer on its own instead of the whole network (the seed's default; its nuq_layer flag is "
                    + "network-wide)");

    /** Whether buckets shorter than bucket_size are sent as float32 and left out of fitted statistics. */
    static final ConfigKey IGNORE_SMALL_BUCKETS = new ConfigKey("ignore_small_buckets", ValueType.BOOL, false,
            "send buckets shorter than bucket_size (a tensor's or the gradient's tail) as float32 values, not "
                    + "quantized, and leave them out of fitted statistics (the seed's nuq_ig_sm_bkts)");
}
