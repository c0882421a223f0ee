package org.gridrun.engine.train;

import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.compress.CompressorProvider;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.ErrorFeedback;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.model.nn.Models;

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
 * @param dropout          whether lenet5 uses dropout
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
 * @param chkptIter        iterations between test-set evaluations (and one at the end) and between checkpoints
 * @param backend          the backend name, or {@code auto}
 * @param metrics          the training modes, measurements and modelled network
 */
public record TrainerConfig(String dataset, String dataDir, String model, List<Integer> hidden, boolean dropout,
                            int ngpu,
                            int batchSize, double lr, double momentum, boolean nesterov, double weightDecay,
                            int niters, String method, Map<String, Object> compressorParams, long seed,
                            int logInterval, int chkptIter, String backend, MetricsConfig metrics) {
    private static final List<ConfigKey> SCHEMA = withCompressorParameters(List.of(
            new ConfigKey("dataset", ValueType.STRING, "fashion-mnist", "data set (the seed's dataset)"),
            new ConfigKey("data_dir", ValueType.STRING, "",
                    "directory of the data files; empty: $GRIDRUN_DATA_DIR, the Debian package, or the shipped subset"),
            new ConfigKey("model", ValueType.STRING, "mlp", "model (the seed's arch; its MNIST cnn is lenet5)"),
            new ConfigKey("hidden", ValueType.INT_LIST, "256", "hidden layer widths of the mlp, e.g. 512,512"),
            new ConfigKey("dropout", ValueType.BOOL, true,
                    "dropout in lenet5, as the seed's MNIST cnn (its nodropout flag turns it off)"),
            new ConfigKey("ngpu", ValueType.INT, 4L, "number of simulated data-parallel workers (the seed's nuq_ngpu)"),
            new ConfigKey("batch_size", ValueType.INT, 32L, "minibatch size per worker"),
            new ConfigKey("optim", ValueType.STRING, "sgd", "optimizer"),
            new ConfigKey("lr", ValueType.DOUBLE, 0.1, "learning rate"),
            new ConfigKey("momentum", ValueType.DOUBLE, 0.9, "SGD momentum, in [0, 1)"),
            new ConfigKey("nesterov", ValueType.BOOL, false, "Nesterov momentum"),
            new ConfigKey("weight_decay", ValueType.DOUBLE, 0.0, "L2 weight decay"),
            new ConfigKey("lr_decay_iters", ValueType.INT_LIST, "",
                    "iterations at which the learning rate is multiplied by lr_decay_rate, e.g. 40000,60000 "
                            + "(the seed's lr_decay_epoch with niters)"),
            new ConfigKey("lr_decay_epochs", ValueType.INT_LIST, "",
                    "epochs at which the learning rate is multiplied by lr_decay_rate (the seed's lr_decay_epoch "
                            + "with epochs)"),
            new ConfigKey("lr_decay_rate", ValueType.DOUBLE, 0.1, "factor of each learning-rate decay"),
            new ConfigKey("niters", ValueType.INT, 300L, "training iterations"),
            new ConfigKey("epochs", ValueType.INT, 0L, "training epochs; 0: stop after niters"),
            new ConfigKey("method", ValueType.STRING, "none",
                    "gradient compressor (grid-run list compressors; the seed's nuq_method, its q is qsgd)"),
            new ConfigKey("measure_only", ValueType.BOOL, false,
                    "train with plain SGD while measuring the compressor (the seed without g_optim)"),
            new ConfigKey("compress_start", ValueType.INT, 0L,
                    "steps trained in full precision before the compressed gradient drives training (the seed's "
                            + "g_optim_start)"),
            new ConfigKey("bits", ValueType.INT, 4L, "quantization bits per value (the seed's nuq_bits)"),
            new ConfigKey("bucket_size", ValueType.INT, 8192L,
                    "values per quantization bucket (the seed's nuq_bucket_size)"),
            new ConfigKey("per_layer", ValueType.BOOL, false,
                    "bucket each layer on its own instead of the whole network (the seed's default; its nuq_layer "
                            + "flag is network-wide)"),
            new ConfigKey("mul", ValueType.DOUBLE, 0.5, "ratio p of exponential levels (nuq; the seed's nuq_mul)"),
            new ConfigKey("cd_epochs", ValueType.INT, 30L,
                    "coordinate-descent sweeps when fitting levels (alq; the seed's nuq_cd_epochs)"),
            new ConfigKey("amq_lr", ValueType.DOUBLE, 0.7, "gradient-descent rate of amq's p (the seed's nuq_amq_lr)"),
            new ConfigKey("amq_epochs", ValueType.INT, 50L,
                    "gradient-descent steps of amq's p (the seed's nuq_amq_epochs)"),
            new ConfigKey("dist_num", ValueType.INT, 20L,
                    "largest-norm buckets in the fitted mixture (alq_nb, amq_nb; the seed's dist_num)"),
            new ConfigKey("number_of_samples", ValueType.INT, 10L,
                    "fresh minibatch gradients sampled at each level re-fit (alq, amq and variants; the seed's "
                            + "nuq_number_of_samples)"),
            new ConfigKey("truncated_interval", ValueType.DOUBLE, 1.0,
                    "half-width t in (0, 1] of the interval [-t, t] the fitted normals are truncated to (alq, amq "
                            + "and variants; the seed's nuq_truncated_interval)"),
            new ConfigKey("symmetric", ValueType.BOOL, false,
                    "fit the positive levels and mirror them, symmetric around zero (alq, alq_nb; the seed's nuq_sym)"),
            new ConfigKey("inv", ValueType.BOOL, false,
                    "closed-form inverse-CDF update of the levels (the seed's nuq_inv)"),
            new ConfigKey("ignore_small_buckets", ValueType.BOOL, false,
                    "send buckets shorter than bucket_size as float32, unquantized, and leave them out of the fitted "
                            + "distribution (the seed's nuq_ig_sm_bkts)"),
            new ConfigKey("osnap_iter", ValueType.INT_LIST, "100,1000,10000",
                    "iterations at which levels are re-fitted, then every last value (the seed's g_osnap_iter)"),
            new ConfigKey("bsnap_iter", ValueType.INT, 0L,
                    "accepted for the seed's grids (its g_bsnap_iter, which no code of the seed reads); no effect"),
            new ConfigKey("gvar_log_iter", ValueType.INT, 0L,
                    "iterations between est_var/sgd_var measurements; 0: none (the seed's gvar_log_iter)"),
            new ConfigKey("gvar_start", ValueType.INT, 0L,
                    "first iteration of variance measurement (the seed's gvar_start)"),
            new ConfigKey("gvar_estim_iter", ValueType.INT, 10L,
                    "minibatch draws in each of a variance measurement's two passes (the seed's gvar_estim_iter)"),
            new ConfigKey("train_accuracy", ValueType.BOOL, false,
                    "also record Tloss and Tacc on the whole training set at each test-set evaluation"),
            new ConfigKey("net_latency_us", ValueType.DOUBLE, 10.0,
                    "latency per message of the modelled network in microseconds (comm_ms_model)"),
            new ConfigKey("net_bandwidth_gbps", ValueType.DOUBLE, 10.0,
                    "bandwidth per link of the modelled network in Gbit/s (comm_ms_model)"),
            new ConfigKey("workers_model", ValueType.INT, 0L, "workers W of the modelled network; 0: ngpu"),
            new ConfigKey("seed", ValueType.INT, 1L, "seed of initialisation, sampling and compression"),
            new ConfigKey("log_interval", ValueType.INT, 10L, "iterations between training metric records"),
            new ConfigKey("chkpt_iter", ValueType.INT, 100L, "iterations between test-set evaluations and checkpoints"),
            new ConfigKey("backend", ValueType.STRING, "cpu", "compute backend: cpu, or auto for the best available"),
            new ConfigKey(ErrorFeedback.PARAMETER, ValueType.BOOL, false,
                    "wrap the method in error feedback: compress the gradient plus the residual of earlier steps")));

    /**
     * Names the grid language accepts for the keys with a fixed vocabulary: every data set, model and method of the
     * four papers and their seeds. {@link #from} accepts only those this build can run ({@link #available}), so a
     * grid may name a method before it is implemented and fails, naming it, only when it is planned to run.
     */
    private static final Map<String, List<String>> VOCABULARY = Map.of(
            "dataset", List.of("fashion-mnist", "mnist", "cifar10", "cifar100", "imagenet"),
            "model", List.of("mlp", "logreg", "lenet5", "resnet8", "resnet20", "resnet32", "resnet44", "resnet56",
                    "resnet110", "wrn", "resnet18"),
            "optim", List.of("sgd", "adam"),
            "method", List.of("none", "qsgd", "qinf", "nuq", "trn", "alq", "alq_nb", "alqg", "alqg_nb", "amq",
                    "amq_nb", "jointsq", "dgc", "acsgd", "mcgq", "smaq", "fp16", "bf16", "fp8", "s2fp8", "powersgd",
                    "topk", "randomk", "threshold", "signsgd", "efsignsgd", "signum", "onebit", "natural"));

    /**
     * Keys the grid language accepts (the seed's grids set them) but this trainer does not implement yet; a value
     * other than the default fails in {@link #from}, so nothing is silently ignored.
     */
    private static final List<String> NOT_YET_IMPLEMENTED = List.of("optim", "lr_decay_iters", "lr_decay_epochs",
            "lr_decay_rate", "epochs");

    /**
     * The seed's quantizer keys that only some methods take; a value other than the default fails in {@link #from}
     * for a method that does not declare it, naming those that do, so nothing is silently ignored.
     */
    private static final List<String> METHOD_KEYS = List.of("per_layer", "mul", "cd_epochs", "amq_lr", "amq_epochs",
            "dist_num", "number_of_samples", "truncated_interval", "symmetric", "inv", "ignore_small_buckets",
            "osnap_iter", "alqg_lr");

    /** {@link #available} by key: fixed once the class path's providers are known; read per validated config. */
    private static final Map<String, List<String>> AVAILABLE = new ConcurrentHashMap<>();

    private static final Map<String, ConfigKey> KEYS = SCHEMA.stream()
            .collect(java.util.stream.Collectors.toMap(ConfigKey::name, k -> k));

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

    /**
     * {@link #resolve} and {@link #from} in one pass: the resolved values of {@code params} (unmodifiable, in schema
     * order), every value checked. Planning a grid calls it once per experiment.
     */
    public static Map<String, Object> validate(Map<String, ?> params) {
        Settings s = Settings.resolve(SCHEMA, params, "key");
        from(s);
        return s.values();
    }

    /** The typed configuration of {@code resolved} (missing keys take their defaults), every value range-checked. */
    public static TrainerConfig from(Map<String, ?> resolved) {
        return from(Settings.resolve(SCHEMA, resolved, "key"));
    }

    private static TrainerConfig from(Settings s) {
        double momentum = s.doubleInHalfOpen("momentum", 0, 1);
        boolean nesterov = s.bool("nesterov");
        if (nesterov && momentum == 0) {
            throw new ConfigException("nesterov needs a positive momentum, found momentum " + momentum);
        }
        String method = runnable(s, "method");
        rejectUnimplemented(s);
        Map<String, Object> compressorParams = compressorParams(method, s.values());
        long seed = s.longValue("seed");
        validateCompressor(method, compressorParams);
        runnable(s, "optim");
        return new TrainerConfig(runnable(s, "dataset"), s.string("data_dir"),
                runnable(s, "model"), s.positiveIntList("hidden"), s.bool("dropout"),
                s.positiveInt("ngpu"),
                s.positiveInt("batch_size"), s.positiveDouble("lr"), momentum, nesterov,
                s.nonNegativeDouble("weight_decay"), s.positiveInt("niters"), method, compressorParams, seed,
                s.positiveInt("log_interval"), s.positiveInt("chkpt_iter"), runnable(s, "backend"),
                MetricsConfig.from(s));
    }

    /**
     * The names {@code key} may take when they form a fixed set, implemented or not (the grid language checks them
     * and suggests the closest); an empty list for any other key.
     */
    public static List<String> choices(String key) {
        if (key.equals("backend")) {
            return Backends.names();
        }
        List<String> known = new ArrayList<>(VOCABULARY.getOrDefault(key, List.of()));
        available(key).stream().filter(name -> !known.contains(name)).forEach(known::add);
        return known;
    }

    /** The values of {@code key} this build can run, where {@link #choices} lists a fixed set; else empty. */
    public static List<String> available(String key) {
        return switch (key) {
            case "dataset" -> DataSets.names();
            case "model" -> Models.NAMES;
            case "optim" -> List.of("sgd");
            case "method" -> Compressors.names();
            case "backend" -> Backends.names();
            default -> List.of();
        };
    }

    /**
     * Method and parameters already known valid: a grid of 100,000 experiments often has a handful of compressor
     * settings, and building a compressor to check them allocates its buffers. Bounded; cleared when full.
     */
    private static final Map<List<Object>, Boolean> VALID_COMPRESSORS = new ConcurrentHashMap<>();

    private static void validateCompressor(String method, Map<String, Object> params) {
        List<Object> key = List.of(method, params);
        if (!VALID_COMPRESSORS.containsKey(key)) {
            Compressors.create(method, params, 0);
            if (VALID_COMPRESSORS.size() > 10_000) {
                VALID_COMPRESSORS.clear();
            }
            VALID_COMPRESSORS.put(key, Boolean.TRUE);
        }
    }

    private static void rejectUnimplemented(Settings s) {
        for (String name : NOT_YET_IMPLEMENTED) {
            if (!isDefault(s, name)) {
                throw new ConfigException(name + " is not implemented in this version of gridrun yet; leave it "
                        + "out or give its default " + ValueType.show(KEYS.get(name).defaultValue()));
            }
        }
        String method = s.string("method");
        for (String name : METHOD_KEYS) {
            if (!isDefault(s, name) && !declares(Compressors.provider(method), name)) {
                List<String> takers = Compressors.providers().stream().filter(p -> declares(p, name))
                        .map(CompressorProvider::name).toList();
                throw new ConfigException(name + " is not a parameter of " + method + " (only of "
                        + String.join(", ", takers) + "); leave it out or give its default "
                        + ValueType.show(KEYS.get(name).defaultValue()));
            }
        }
    }

    private static boolean isDefault(Settings s, String name) {
        Object value = s.values().get(name);
        Object defaultValue = KEYS.get(name).defaultValue();
        return value.equals(defaultValue)
                || value instanceof Number n && defaultValue instanceof Number d && n.doubleValue() == d.doubleValue();
    }

    private static boolean declares(CompressorProvider provider, String name) {
        return provider.parameters().stream().anyMatch(p -> p.name().equals(name));
    }

    /** The value of {@code key}, which must be one this build can run; a known but missing one says so. */
    private static String runnable(Settings s, String key) {
        String value = s.string(key);
        List<String> available = AVAILABLE.computeIfAbsent(key, TrainerConfig::available);
        if (!available.contains(value) && choices(key).contains(value)) {
            throw new ConfigException(key + " '" + value + "' is not available in this version of gridrun yet; "
                    + "available: " + String.join(", ", available));
        }
        return s.oneOf(key, available);
    }

    /**
     * {@code keys}, then every parameter a registered compressor declares that they lack, so that a grid may set any
     * method's parameter; a parameter declared with another type than a key of the same name is a programming error.
     */
    private static List<ConfigKey> withCompressorParameters(List<ConfigKey> keys) {
        Map<String, ConfigKey> all = new LinkedHashMap<>();
        keys.forEach(k -> all.put(k.name(), k));
        for (CompressorProvider provider : Compressors.providers()) {
            for (ConfigKey p : provider.parameters()) {
                ConfigKey known = all.putIfAbsent(p.name(), p);
                if (known != null && known.type() != p.type()) {
                    throw new IllegalStateException(provider.name() + " declares " + p.name() + " as " + p.type()
                            + ", but the trainer has it as " + known.type());
                }
            }
        }
        return List.copyOf(all.values());
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
        Object feedback = values.get(ErrorFeedback.PARAMETER);
        if (Boolean.TRUE.equals(feedback) || "".equals(feedback)) {
            params.put(ErrorFeedback.PARAMETER, true);
        }
        return params;
    }
}
