package org.gridrun.engine.train;

import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.compress.CompressorProvider;
import org.gridrun.engine.compress.Compressors;

/**
 * The trainer's configuration, typed and validated.
 *
 * <p>{@link #schema()} lists every key with its type, default and help; {@link #resolve(Map)} fills in defaults and
 * rejects unknown keys, giving what {@code experiment.yaml} stores; {@link #from(Map)} checks types and ranges and
 * builds this record. Every failure is a {@link ConfigException} naming the key, the rule and the value found, e.g.
 * {@code lr must be positive, found -0.1}. Key names follow the ALQ/AMQ seed ({@code ngpu}, {@code niters},
 * {@code chkpt_iter}).
 *
 * @param dataset          the data set; only {@code fashion-mnist} for now
 * @param dataDir          where its files are; empty for automatic resolution
 * @param model            the model; only {@code mlp} for now
 * @param hidden           the hidden layer widths
 * @param ngpu             the number of simulated data-parallel workers
 * @param batchSize        the minibatch size per worker
 * @param lr               the learning rate
 * @param momentum         the SGD momentum
 * @param nesterov         whether momentum is Nesterov's
 * @param weightDecay      the L2 weight decay
 * @param niters           the number of training iterations
 * @param method           the compressor's short name
 * @param compressorParams the compressor's parameters, taken from the keys of the same names
 * @param seed             the seed of every random stream of the run
 * @param logInterval      iterations between training-metric records
 * @param chkptIter        iterations between test-set evaluations (and one at the end)
 * @param backend          the backend name, or {@code auto}
 */
public record TrainerConfig(String dataset, String dataDir, String model, List<Integer> hidden, int ngpu,
                            int batchSize, double lr, double momentum, boolean nesterov, double weightDecay,
                            int niters, String method, Map<String, Object> compressorParams, long seed,
                            int logInterval, int chkptIter, String backend) {
    private static final List<ConfigKey> SCHEMA = List.of(
            new ConfigKey("dataset", ValueType.STRING, "fashion-mnist", "data set: fashion-mnist"),
            new ConfigKey("data_dir", ValueType.STRING, "",
                    "directory of the data files; empty: $GRIDRUN_DATA_DIR, the Debian package, or the shipped subset"),
            new ConfigKey("model", ValueType.STRING, "mlp", "model: mlp"),
            new ConfigKey("hidden", ValueType.INT_LIST, "256", "hidden layer widths of the mlp, e.g. 512,512"),
            new ConfigKey("ngpu", ValueType.INT, 4L, "number of simulated data-parallel workers"),
            new ConfigKey("batch_size", ValueType.INT, 32L, "minibatch size per worker"),
            new ConfigKey("lr", ValueType.DOUBLE, 0.1, "learning rate"),
            new ConfigKey("momentum", ValueType.DOUBLE, 0.9, "SGD momentum, in [0, 1)"),
            new ConfigKey("nesterov", ValueType.BOOL, false, "Nesterov momentum"),
            new ConfigKey("weight_decay", ValueType.DOUBLE, 0.0, "L2 weight decay"),
            new ConfigKey("niters", ValueType.INT, 300L, "training iterations"),
            new ConfigKey("method", ValueType.STRING, "none", "gradient compressor (grid-run list compressors)"),
            new ConfigKey("bits", ValueType.INT, 4L, "quantization bits per value (qsgd)"),
            new ConfigKey("bucket_size", ValueType.INT, 8192L, "values per quantization bucket (qsgd)"),
            new ConfigKey("seed", ValueType.INT, 1L, "seed of initialisation, sampling and compression"),
            new ConfigKey("log_interval", ValueType.INT, 10L, "iterations between training metric records"),
            new ConfigKey("chkpt_iter", ValueType.INT, 100L, "iterations between test-set evaluations"),
            new ConfigKey("backend", ValueType.STRING, "cpu", "compute backend: cpu, or auto for the best available"));

    public TrainerConfig {
        hidden = List.copyOf(hidden);
        compressorParams = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(compressorParams));
    }

    /** Every configuration key, in the order {@code experiment.yaml} lists them. */
    public static List<ConfigKey> schema() {
        return SCHEMA;
    }

    /**
     * Every schema key in schema order: the value in {@code params} where given, else the default.
     *
     * <p>An unknown key or a value of the wrong type fails with a {@link ConfigException}; ranges are checked by
     * {@link #from(Map)}.
     */
    public static Map<String, Object> resolve(Map<String, ?> params) {
        return new LinkedHashMap<>(Settings.resolve(SCHEMA, params, "key").values());
    }

    /** The typed configuration of {@code resolved} (missing keys take their defaults), every value range-checked. */
    public static TrainerConfig from(Map<String, ?> resolved) {
        Settings s = Settings.resolve(SCHEMA, resolved, "key");
        double momentum = s.doubleInHalfOpen("momentum", 0, 1);
        boolean nesterov = s.bool("nesterov");
        if (nesterov && momentum == 0) {
            throw new ConfigException("nesterov needs a positive momentum, found momentum " + momentum);
        }
        String method = s.oneOf("method", choices("method"));
        Map<String, Object> compressorParams = compressorParams(method, s.values());
        long seed = s.longValue("seed");
        Compressors.create(method, compressorParams, seed);
        return new TrainerConfig(s.oneOf("dataset", choices("dataset")), s.string("data_dir"),
                s.oneOf("model", choices("model")), s.positiveIntList("hidden"), s.positiveInt("ngpu"),
                s.positiveInt("batch_size"), s.positiveDouble("lr"), momentum, nesterov,
                s.nonNegativeDouble("weight_decay"), s.positiveInt("niters"), method, compressorParams, seed,
                s.positiveInt("log_interval"), s.positiveInt("chkpt_iter"), s.oneOf("backend", choices("backend")));
    }

    /** The values {@code key} may take when they form a fixed set; an empty list for any other key. */
    public static List<String> choices(String key) {
        return switch (key) {
            case "dataset" -> List.of("fashion-mnist");
            case "model" -> List.of("mlp");
            case "method" -> Compressors.names();
            case "backend" -> Backends.names();
            default -> List.of();
        };
    }

    /** The values of the keys {@code method} declares as parameters, where the configuration has them. */
    private static Map<String, Object> compressorParams(String method, Map<String, Object> values) {
        CompressorProvider provider = Compressors.provider(method);
        Map<String, Object> params = new LinkedHashMap<>();
        for (ConfigKey key : provider.parameters()) {
            if (values.containsKey(key.name())) {
                params.put(key.name(), values.get(key.name()));
            }
        }
        return params;
    }
}
