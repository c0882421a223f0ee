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
import org.gridrun.engine.data.DataOptions;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.model.nn.Models;
import org.gridrun.engine.model.nn.VitSizes;
import org.gridrun.engine.optim.LearningRateSchedule;

/**
 * The trainer's configuration, typed and validated.
 *
 * <p>{@link #schema()} lists every key with its type, default and help; {@link #resolve(Map)} fills in defaults and
 * rejects unknown keys, giving what {@code experiment.yaml} stores; {@link #from(Map)} checks types and ranges and
 * builds this record. Every failure is a {@link ConfigException} naming the key, the rule and the value found, e.g.
 * {@code lr must be positive, found -0.1}. Key names follow the ALQ/AMQ seed ({@code ngpu}, {@code niters},
 * {@code chkpt_iter}).
 *
 * @param dataset          the data set (one of {@link DataSets#names()})
 * @param dataDir          where its files are; empty for automatic resolution
 * @param dataOptions      how a data set read from files is read: data_threads, skip_bad_images
 * @param model            the model (one of {@code Models.NAMES})
 * @param hidden           the hidden layer widths
 * @param dropout          whether lenet5 uses dropout
 * @param ngpu             the number of simulated data-parallel workers
 * @param batchSize        the minibatch size per worker
 * @param optim            the optimizer: {@code sgd} or {@code adam}
 * @param lr               the learning rate
 * @param momentum         the SGD momentum
 * @param nesterov         whether momentum is Nesterov's
 * @param weightDecay      the L2 weight decay
 * @param noDecayBnBias    whether 1-D parameter tensors (biases, batch-norm scales and shifts) are not decayed
 * @param beta1            Adam's first-moment decay
 * @param beta2            Adam's second-moment decay
 * @param eps              Adam's denominator term
 * @param lrSchedule       the learning-rate shape: {@code multistep} or {@code cosine}
 * @param lrDecayIters     the multistep milestones in iterations
 * @param lrDecayEpochs    the multistep milestones in epochs
 * @param lrDecayRate      the multistep factor
 * @param warmupIters      the linear warm-up steps
 * @param niters           the number of training iterations, unless {@code epochs} is positive
 * @param epochs           the number of training epochs; 0: {@code niters} decides
 * @param method           the compressor's short name
 * @param compressorParams the compressor's parameters, taken from the keys of the same names
 * @param seed             the seed of every random stream of the run
 * @param logInterval      iterations between training-metric records
 * @param chkptIter        iterations between test-set evaluations (and one at the end) and between checkpoints
 * @param backend          the backend name, or {@code auto}
 * @param cudaGraph        whether a step that runs wholly on the device is replayed as one CUDA graph
 * @param concurrentWorkers whether the workers' passes in that graph may run at the same time, each in a workspace of
 *                         its own
 * @param memoryCodec      SmaQ's memory mode: the method stored tensors pass through; empty for none
 * @param memoryTargets    which tensors pass: weights, activations, activation_gradients, optimizer
 * @param memoryParams     the memory codec's parameters, taken from the keys of the same names
 * @param metrics          the training modes, measurements and modelled network
 * @param vit              the sizes of the {@code vit} model
 * @param language         the text, LSTM sizes and truncated back-propagation of language models
 * @param clipping         the gradient-norm clipping of each worker's gradient and of their average
 */
public record TrainerConfig(String dataset, String dataDir, DataOptions dataOptions, String model, List<Integer> hidden,
                            boolean dropout,
                            int ngpu,
                            int batchSize, String optim, double lr, double momentum, boolean nesterov,
                            double weightDecay, boolean noDecayBnBias, double beta1, double beta2, double eps,
                            String lrSchedule, List<Integer> lrDecayIters, List<Integer> lrDecayEpochs,
                            double lrDecayRate, int warmupIters, int niters, int epochs, String method,
                            Map<String, Object> compressorParams, long seed, int logInterval, int chkptIter,
                            String backend, boolean cudaGraph, boolean concurrentWorkers, String memoryCodec,
                            List<String> memoryTargets,
                            Map<String, Object> memoryParams, MetricsConfig metrics, VitSizes vit,
                            LanguageConfig language, Clipping clipping) {
    private static final List<ConfigKey> SCHEMA = withCompressorParameters(List.of(
            new ConfigKey("dataset", ValueType.STRING, "fashion-mnist", "data set (the seed's dataset)"),
            new ConfigKey("data_dir", ValueType.STRING, "",
                    "directory of the data files; empty: $GRIDRUN_DATA_DIR, the Debian package, or the shipped subset"),
            new ConfigKey("data_threads", ValueType.INT, 0L,
                    "threads decoding and augmenting images of a data set read from files (imagenet); 0: the cores "
                            + "the job was given"),
            new ConfigKey("skip_bad_images", ValueType.BOOL, false,
                    "skip an unreadable image of a data set read from files, count it and report it at the end, "
                            + "instead of failing with its file name"),
            new ConfigKey("model", ValueType.STRING, "mlp", "model (the seed's arch; its MNIST cnn is lenet5)"),
            new ConfigKey("hidden", ValueType.INT_LIST, "256", "hidden layer widths of the mlp, e.g. 512,512"),
            new ConfigKey("dropout", ValueType.BOOL, true,
                    "dropout in lenet5, as the seed's MNIST cnn (its nodropout flag turns it off)"),
            new ConfigKey("ngpu", ValueType.INT, 4L, "number of simulated data-parallel workers (the seed's nuq_ngpu)"),
            new ConfigKey("batch_size", ValueType.INT, 32L, "minibatch size per worker"),
            new ConfigKey("optim", ValueType.STRING, "sgd",
                    "optimizer: sgd (momentum, nesterov) or adam (beta1, beta2, eps), both PyTorch's"),
            new ConfigKey("lr", ValueType.DOUBLE, 0.1, "learning rate"),
            new ConfigKey("momentum", ValueType.DOUBLE, 0.9, "SGD momentum, in [0, 1)"),
            new ConfigKey("nesterov", ValueType.BOOL, false, "Nesterov momentum (sgd)"),
            new ConfigKey("weight_decay", ValueType.DOUBLE, 0.0, "L2 weight decay, added to the gradient"),
            new ConfigKey("no_decay_bn_bias", ValueType.BOOL, false,
                    "no weight decay on 1-D parameter tensors: biases and batch-norm scales and shifts"),
            new ConfigKey("beta1", ValueType.DOUBLE, 0.9, "Adam's first-moment decay, in [0, 1)"),
            new ConfigKey("beta2", ValueType.DOUBLE, 0.999, "Adam's second-moment decay, in [0, 1)"),
            new ConfigKey("eps", ValueType.DOUBLE, 1e-8, "Adam's term added to the denominator, positive"),
            new ConfigKey("lr_schedule", ValueType.STRING, "multistep",
                    "learning-rate shape: multistep (lr_decay_iters or lr_decay_epochs; none: constant) or cosine "
                            + "(from lr towards 0 over the run)"),
            new ConfigKey("lr_decay_iters", ValueType.INT_LIST, "",
                    "iterations after which the learning rate is multiplied by lr_decay_rate, e.g. 40000,60000: "
                            + "step 40001 is the first at 0.1 lr (the seed's lr_decay_epoch with niters)"),
            new ConfigKey("lr_decay_epochs", ValueType.INT_LIST, "",
                    "epochs after which the learning rate is multiplied by lr_decay_rate, with epochs (the seed's "
                            + "lr_decay_epoch with epochs)"),
            new ConfigKey("lr_decay_rate", ValueType.DOUBLE, 0.1, "factor of each learning-rate decay"),
            new ConfigKey("warmup_iters", ValueType.INT, 0L,
                    "linear warm-up: step s of the first warmup_iters uses s/warmup_iters of the scheduled rate"),
            new ConfigKey("niters", ValueType.INT, 300L, "training iterations, unless epochs is set"),
            new ConfigKey("epochs", ValueType.INT, 0L,
                    "training epochs of ceil(train size / batch_size) iterations each (the seed's epoch_iters); "
                            + "0: stop after niters"),
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
            new ConfigKey("backend", ValueType.STRING, "auto", "compute backend: cuda (a GPU through JCuda), cpu, or "
                    + "auto: cuda when a usable GPU is present, else cpu"),
            new ConfigKey("cuda_graph", ValueType.BOOL, true,
                    "on cuda, replay a training step that runs wholly on the GPU (model, device compressors, mean, "
                            + "optimizer) as one CUDA graph, recorded once; false: launch kernel by kernel (same "
                            + "results)"),
            new ConfigKey("concurrent_workers", ValueType.BOOL, true,
                    "on cuda, with cuda_graph, let the workers' forward, backward and encode run on the GPU at the "
                            + "same time, each in activation memory of its own (ngpu times that of one worker); "
                            + "ordered where they share memory, so the results are the same bits; false: one "
                            + "worker after another in one workspace"),
            new ConfigKey("memory_codec", ValueType.STRING, "",
                    "SmaQ's memory mode: store the memory_targets through this method after each use (smaq, fp16, "
                            + "bf16, fp8, s2fp8, …) and record memory_ratio; empty: off"),
            new ConfigKey("memory_targets", ValueType.STRING, "weights,activations,activation_gradients,optimizer",
                    "what memory_codec stores: any of weights, activations, activation_gradients, optimizer"),
            new ConfigKey(ErrorFeedback.PARAMETER, ValueType.BOOL, false,
                    "wrap the method in error feedback: compress the gradient plus the residual of earlier steps"),
            new ConfigKey("vit_patch", ValueType.INT, 4L, "vit: patch side in pixels (must divide the image's sides)"),
            new ConfigKey("vit_width", ValueType.INT, 192L, "vit: channels per token, a multiple of vit_heads"),
            new ConfigKey("vit_depth", ValueType.INT, 6L, "vit: transformer blocks"),
            new ConfigKey("vit_heads", ValueType.INT, 3L, "vit: attention heads"),
            new ConfigKey("vit_mlp", ValueType.INT, 768L, "vit: hidden channels of each block's MLP")));

    /**
     * Names the grid language accepts for the keys with a fixed vocabulary: every data set, model and method of the
     * four papers and their seeds. {@link #from} accepts only those this build can run ({@link #available}), so a
     * grid may name a method before it is implemented and fails, naming it, only when it is planned to run.
     */
    private static final Map<String, List<String>> VOCABULARY = Map.of(
            "dataset", List.of("fashion-mnist", "mnist", "cifar10", "cifar100", "imagenet", "synthetic-cifar",
                    "wikitext2", "text", "generated-text"),
            "model", List.of("mlp", "logreg", "lenet5", "resnet8", "resnet20", "resnet32", "resnet44", "resnet56",
                    "resnet110", "resnet18", "resnet34", "resnet50", "wrn-28-10", "vit", "lstm"),
            "optim", List.of("sgd", "adam"),
            "text_level", List.of("word", "char"),
            "method", List.of("none", "qsgd", "qinf", "nuq", "trn", "alq", "alq_nb", "alqg", "alqg_nb", "amq",
                    "amq_nb", "jointsq", "dgc", "acsgd", "mcgq", "smaq", "fp16", "bf16", "fp8", "s2fp8", "powersgd",
                    "topk", "randomk", "threshold", "signsgd", "efsignsgd", "signum", "onebit", "natural"));

    /**
     * Keys the grid language accepts (the seed's grids set them) but this trainer does not implement yet; a value
     * other than the default fails in {@link #from}, so nothing is silently ignored.
     */
    private static final List<String> NOT_YET_IMPLEMENTED = List.of();

    /**
     * The seed's quantizer keys that only some methods take; a value other than the default fails in {@link #from}
     * for a method that does not declare it, naming those that do, so nothing is silently ignored.
     */
    private static final List<String> METHOD_KEYS = List.of("per_layer", "mul", "cd_epochs", "amq_lr", "amq_epochs",
            "number_of_samples", "truncated_interval", "symmetric", "inv", "ignore_small_buckets",
            "alqg_lr");

    /** {@link #available} by key: fixed once the class path's providers are known; read per validated config. */
    private static final Map<String, List<String>> AVAILABLE = new ConcurrentHashMap<>();

    private static final Map<String, ConfigKey> KEYS = SCHEMA.stream()
            .collect(java.util.stream.Collectors.toMap(ConfigKey::name, k -> k));

    /** What SmaQ's memory mode may store through its codec. */
    public static final List<String> MEMORY_TARGETS = List.of("weights", "activations", "activation_gradients",
            "optimizer");

    public TrainerConfig {
        hidden = List.copyOf(hidden);
        lrDecayIters = List.copyOf(lrDecayIters);
        lrDecayEpochs = List.copyOf(lrDecayEpochs);
        memoryTargets = List.copyOf(memoryTargets);
        memoryParams = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(memoryParams));
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
        String memoryCodec = s.string("memory_codec");
        Map<String, Object> memoryParams = Map.of();
        if (!memoryCodec.isEmpty()) {
            memoryCodec = s.oneOf("memory_codec", Compressors.names());
            memoryParams = compressorParams(memoryCodec, s.values());
            memoryParams.remove(ErrorFeedback.PARAMETER);
            validateCompressor(memoryCodec, memoryParams);
        }
        String optim = runnable(s, "optim");
        OptimizerKeys.check(s, optim, TrainerConfig::isDefault);
        String dataset = runnable(s, "dataset");
        String model = runnable(s, "model");
        MetricsConfig metrics = MetricsConfig.from(s);
        LanguageConfig language = LanguageConfig.from(s, dataset, model, metrics.trainAccuracy(),
                metrics.gvarLogIter());
        return new TrainerConfig(dataset, s.string("data_dir"), dataOptions(s),
                model, s.positiveIntList("hidden"), s.bool("dropout"),
                s.positiveInt("ngpu"),
                s.positiveInt("batch_size"), optim, s.positiveDouble("lr"), momentum, nesterov,
                s.nonNegativeDouble("weight_decay"), s.bool("no_decay_bn_bias"), s.doubleInHalfOpen("beta1", 0, 1),
                s.doubleInHalfOpen("beta2", 0, 1), s.positiveDouble("eps"), s.string("lr_schedule"),
                s.positiveIntList("lr_decay_iters"), s.positiveIntList("lr_decay_epochs"),
                s.positiveDouble("lr_decay_rate"), s.intIn("warmup_iters", 0, Integer.MAX_VALUE),
                s.positiveInt("niters"), s.intIn("epochs", 0, Integer.MAX_VALUE), method, compressorParams, seed,
                s.positiveInt("log_interval"), s.positiveInt("chkpt_iter"), runnable(s, "backend"),
                unlessSwitchedOff(s, "cuda_graph"), unlessSwitchedOff(s, "concurrent_workers"), memoryCodec,
                memoryTargets(s, memoryCodec), memoryParams, metrics, vitSizes(s), language, Clipping.from(s));
    }

    /**
     * Boolean {@code key}, unless this process was started with {@code -Dgridrun.<key>=false}: for the keys whose
     * either value gives the same results ({@code cuda_graph}, {@code concurrent_workers}), so that a job can turn one
     * off ({@code GRIDRUN_JAVA_OPTS}, which local jobs and SLURM scripts pass on) without changing its grid, and so
     * its experiments' names and ids.
     */
    private static boolean unlessSwitchedOff(Settings s, String key) {
        return s.bool(key) && !"false".equals(System.getProperty("gridrun." + key));
    }

    /** The {@code vit_*} keys, each positive, the width a multiple of the heads. */
    private static VitSizes vitSizes(Settings s) {
        int width = s.positiveInt("vit_width");
        int heads = s.positiveInt("vit_heads");
        if (width % heads != 0) {
            throw new ConfigException("vit_width must be a multiple of vit_heads " + heads + ", found " + width);
        }
        return new VitSizes(s.positiveInt("vit_patch"), width, s.positiveInt("vit_depth"), heads,
                s.positiveInt("vit_mlp"));
    }

    /** {@code data_threads} (0: the processors this JVM may use) and {@code skip_bad_images}. */
    private static DataOptions dataOptions(Settings s) {
        int threads = s.intIn("data_threads", 0, 4096);
        return new DataOptions(threads == 0 ? Runtime.getRuntime().availableProcessors() : threads,
                s.bool("skip_bad_images"));
    }

    /** The threads decoding images of a data set read from files. */
    public int dataThreads() {
        return dataOptions.threads();
    }

    /**
     * Iterations in an epoch over {@code trainSize} images: {@code ceil(trainSize / batch_size)}, the seed's
     * {@code epoch_iters}. Each worker draws its own batches, so in an epoch every worker passes about once over the
     * training set (its sampler drops the last incomplete batch of each pass, so the passes drift by a few batches).
     */
    public int epochIterations(int trainSize) {
        return (trainSize + batchSize - 1) / batchSize;
    }

    /**
     * The run's length in iterations for a training set of {@code trainSize} images: {@code epochs} epochs when
     * positive, else {@code niters}. Progress and the stop condition use it and nothing else.
     */
    public long totalIterations(int trainSize) {
        return epochs > 0 ? (long) epochs * epochIterations(trainSize) : niters;
    }

    /**
     * The learning-rate schedule of a run on {@code trainSize} images: {@code lr_decay_epochs} are converted to
     * iterations with {@link #epochIterations}. A milestone that is not before the last iteration fails with a
     * {@link ConfigException} naming its key.
     */
    public LearningRateSchedule schedule(int trainSize) {
        long total = totalIterations(trainSize);
        if (lrSchedule.equals("cosine")) {
            return LearningRateSchedule.cosine(lr, total, warmupIters);
        }
        boolean inEpochs = !lrDecayEpochs.isEmpty();
        long unit = inEpochs ? epochIterations(trainSize) : 1;
        List<Long> milestones = (inEpochs ? lrDecayEpochs : lrDecayIters).stream().map(m -> m * unit).toList();
        OptimizerKeys.requireBefore(inEpochs ? "lr_decay_epochs" : "lr_decay_iters", milestones, total);
        return LearningRateSchedule.multistep(lr, milestones, lrDecayRate, warmupIters);
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
            case "optim" -> List.of("sgd", "adam");
            case "text_level" -> List.of("word", "char");
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

    /** The memory targets, each one of {@link #MEMORY_TARGETS}, without repeats. */
    private static List<String> memoryTargets(Settings s, String codec) {
        List<String> targets = new ArrayList<>();
        for (String part : s.string("memory_targets").split(",")) {
            String target = part.trim();
            if (!MEMORY_TARGETS.contains(target)) {
                throw new ConfigException("memory_targets must list some of " + MEMORY_TARGETS + ", found '"
                        + target + "'");
            }
            if (!targets.contains(target)) {
                targets.add(target);
            }
        }
        boolean layered = !List.of("mlp", "logreg").contains(s.string("model"));
        if (!codec.isEmpty() && !layered && (targets.contains("activations")
                || targets.contains("activation_gradients"))) {
            throw new ConfigException("memory_targets activations and activation_gradients need a layered model "
                    + "(lenet5, resnet*), found model " + s.string("model") + "; give memory_targets: "
                    + "weights,optimizer");
        }
        return targets;
    }

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
            // The seed's SuperSGD is its nuq estimator with method none, so its grids set the nuq flags there too:
            // full precision takes them and they change nothing.
            if (!method.equals("none") && !isDefault(s, name) && !declares(Compressors.provider(method), name)) {
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
        LanguageConfig.KEYS.forEach(k -> all.put(k.name(), k));
        Clipping.KEYS.forEach(k -> all.put(k.name(), k));
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
