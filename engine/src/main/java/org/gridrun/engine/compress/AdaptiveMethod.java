package org.gridrun.engine.compress;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.compress.levels.AlqCoordinateDescent;
import org.gridrun.engine.compress.levels.AlqFiniteDifference;
import org.gridrun.engine.compress.levels.AlqProjectedGradient;
import org.gridrun.engine.compress.levels.AmqAuthors;
import org.gridrun.engine.compress.levels.AmqExponential;
import org.gridrun.engine.compress.levels.LevelFitter;
import org.gridrun.engine.compress.levels.StartingLevels;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/** The six adaptive methods of {@link AdaptiveQuantizer}: how each fits its levels, and its parameters. */
enum AdaptiveMethod {
    ALQ("alq", Fit.COORDINATE_DESCENT, false),
    ALQ_NB("alq_nb", Fit.COORDINATE_DESCENT, true),
    ALQG("alqg", Fit.PROJECTED_GRADIENT, false),
    ALQG_NB("alqg_nb", Fit.PROJECTED_GRADIENT, true),
    AMQ("amq", Fit.EXPONENTIAL, false),
    AMQ_NB("amq_nb", Fit.EXPONENTIAL, true);

    /** The fitters of ALQ (coordinate descent, projected gradient) and AMQ (exponential levels). */
    enum Fit { COORDINATE_DESCENT, PROJECTED_GRADIENT, EXPONENTIAL }

    /** The parsed, validated parameters; those a method does not declare keep their defaults. */
    record Params(int bits, int bucketSize, boolean perLayer, boolean ignoreSmallBuckets, int cdEpochs, boolean inv,
                  boolean symmetric, double alqgLr, double amqLr, int amqEpochs, int distNum, double interval,
                  int samples, List<Integer> osnapIter, boolean authorsFit) {
    }

    /** The {@code level_fit} choices: gridrun's exact fit, or the authors' code's. */
    static final List<String> LEVEL_FITS = List.of("exact", "authors");

    private static final ConfigKey CD_EPOCHS = new ConfigKey("cd_epochs", ValueType.INT, 30L,
            "sweeps (alq) or gradient steps (alqg) per level fit (the seed's nuq_cd_epochs)");
    private static final ConfigKey INV = new ConfigKey("inv", ValueType.BOOL, false,
            "closed-form inverse-CDF update of the levels (the seed's nuq_inv)");
    private static final ConfigKey SYMMETRIC = new ConfigKey("symmetric", ValueType.BOOL, false,
            "fit the upper half of the levels behind a fixed 0 and mirror it: levels symmetric around zero, none at "
                    + "zero (the seed's nuq_sym)");
    private static final ConfigKey ALQG_LR = new ConfigKey("alqg_lr", ValueType.DOUBLE, 0.1,
            "first step size of alqg's projected gradient, halved on every rejected step (the seed's "
                    + "nuq_learning_rate, which its alq_pgd never receives: it keeps 0.1)");
    private static final ConfigKey AMQ_LR = new ConfigKey("amq_lr", ValueType.DOUBLE, 0.7,
            "gradient-descent rate of amq's p (the seed's nuq_amq_lr)");
    private static final ConfigKey AMQ_EPOCHS = new ConfigKey("amq_epochs", ValueType.INT, 50L,
            "gradient-descent steps of amq's p (the seed's nuq_amq_epochs)");
    private static final ConfigKey DIST_NUM = new ConfigKey("dist_num", ValueType.INT, 20L,
            "largest-norm buckets in the fitted mixture (the seed's dist_num)");
    private static final ConfigKey TRUNCATED_INTERVAL = new ConfigKey("truncated_interval", ValueType.DOUBLE, 1.0,
            "half-width t in (0, 1] of the interval [-t, t] the fitted normals are truncated to (the seed's "
                    + "nuq_truncated_interval)");
    private static final ConfigKey NUMBER_OF_SAMPLES = new ConfigKey("number_of_samples", ValueType.INT, 10L,
            "fresh minibatch gradients whose bucket statistics each re-fit pools (the seed's nuq_number_of_samples); "
                    + "the encoded gradient when no trainer draws them");
    private static final ConfigKey LEVEL_FIT = new ConfigKey("level_fit", ValueType.STRING, "exact",
            "exact (alq: each level at the exact minimiser of the variance proxy; amq: exact gradient, best p seen, "
                    + "whole proxy) or authors (their code's: finite-difference steps of size 1 that barely move "
                    + "the levels; their G.3 gradient, starts and last p, chosen on the upper half's proxy), to "
                    + "reproduce the paper's tables");
    private static final ConfigKey OSNAP_ITER = new ConfigKey("osnap_iter", ValueType.INT_LIST, "100,1000,10000",
            "counts of steps done after which the levels are re-fitted, then every multiple of the last value, and "
                    + "always before the first step, as the seed counts them (its g_osnap_iter)");

    private final String methodName;
    private final Fit fit;
    private final boolean normBased;

    AdaptiveMethod(String methodName, Fit fit, boolean normBased) {
        this.methodName = methodName;
        this.fit = fit;
        this.normBased = normBased;
    }

    String methodName() {
        return methodName;
    }

    boolean normBased() {
        return normBased;
    }

    /** AMQ's p before its first fit, as in the seed. */
    static final double STARTING_MULTIPLIER = 0.5;

    /** Whether the levels are AMQ's exponential family {@code ±p^j}. */
    boolean exponential() {
        return fit == Fit.EXPONENTIAL;
    }

    /** Uniform levels for ALQ, {@code ±0.5^j} for AMQ: the state before the first step's fit. */
    double[] initialLevels(int bits) {
        int count = 1 << bits;
        return exponential() ? StartingLevels.exponential(count, STARTING_MULTIPLIER)
                : StartingLevels.uniform(count);
    }

    LevelFitter fitter(Params p) {
        return switch (fit) {
            case COORDINATE_DESCENT -> p.authorsFit() ? new AlqFiniteDifference(p.cdEpochs(), p.inv(), p.symmetric())
                    : new AlqCoordinateDescent(p.cdEpochs(), p.inv(), p.symmetric());
            case PROJECTED_GRADIENT -> new AlqProjectedGradient(p.cdEpochs(), p.alqgLr());
            case EXPONENTIAL -> p.authorsFit() ? new AmqAuthors(p.amqEpochs(), p.amqLr(), normBased)
                    : new AmqExponential(p.amqEpochs(), p.amqLr(), 0.25, 0.5, 0.75);
        };
    }

    List<ConfigKey> parameters() {
        List<ConfigKey> keys = new ArrayList<>(List.of(QuantizerKeys.bits(fit == Fit.EXPONENTIAL
                        ? "2^bits exponential levels ±p^j, p fitted" : "2^bits fitted levels"),
                QuantizerKeys.bucketSize("L2 norm"), QuantizerKeys.PER_LAYER, QuantizerKeys.IGNORE_SMALL_BUCKETS));
        keys.addAll(fit == Fit.EXPONENTIAL ? List.of(AMQ_LR, AMQ_EPOCHS, LEVEL_FIT)
                : fit == Fit.COORDINATE_DESCENT ? List.of(CD_EPOCHS, INV, SYMMETRIC, LEVEL_FIT)
                : List.of(CD_EPOCHS, ALQG_LR));
        if (normBased) {
            keys.add(DIST_NUM);
        }
        keys.addAll(List.of(TRUNCATED_INTERVAL, NUMBER_OF_SAMPLES, OSNAP_ITER));
        return List.copyOf(keys);
    }

    /** The fit's own parameters, as {@link #parameters()} names them. */
    Map<String, Object> fitConfig(Params p) {
        Map<String, Object> config = new LinkedHashMap<>();
        if (fit == Fit.EXPONENTIAL) {
            config.put("amq_lr", p.amqLr());
            config.put("amq_epochs", (long) p.amqEpochs());
        } else {
            config.put("cd_epochs", (long) p.cdEpochs());
            if (fit == Fit.COORDINATE_DESCENT) {
                config.put("inv", p.inv());
                config.put("symmetric", p.symmetric());
            } else {
                config.put("alqg_lr", p.alqgLr());
            }
        }
        if (fit != Fit.PROJECTED_GRADIENT) {
            config.put("level_fit", p.authorsFit() ? "authors" : "exact");
        }
        if (normBased) {
            config.put("dist_num", (long) p.distNum());
        }
        config.put("truncated_interval", p.interval());
        config.put("number_of_samples", (long) p.samples());
        return config;
    }

    /** Reads and checks the parameters this method declares. */
    Params params(Settings s) {
        int bits = s.intIn("bits", 1, 8);
        int bucketSize = s.positiveInt("bucket_size");
        boolean exponential = fit == Fit.EXPONENTIAL;
        int cdEpochs = exponential ? 30 : s.positiveInt("cd_epochs");
        boolean inv = fit == Fit.COORDINATE_DESCENT && s.bool("inv");
        boolean symmetric = fit == Fit.COORDINATE_DESCENT && s.bool("symmetric");
        double alqgLr = fit == Fit.PROJECTED_GRADIENT ? s.positiveDouble("alqg_lr") : 0.1;
        double amqLr = exponential ? s.positiveDouble("amq_lr") : 0.7;
        int amqEpochs = exponential ? nonNegativeInt(s, "amq_epochs") : 50;
        int distNum = normBased ? s.positiveInt("dist_num") : 20;
        double interval = s.doubleValue("truncated_interval");
        if (!(interval > 0 && interval <= 1)) {
            throw new ConfigException("truncated_interval must be in (0, 1], found " + ValueType.show(interval));
        }
        // The seed's lists may start at 0 (the first step, which fits under every list) and repeat their period:
        // '0,80000,80000'.
        List<Integer> osnap = s.nonNegativeIntList("osnap_iter");
        for (int i = 1; i < osnap.size(); i++) {
            if (osnap.get(i) < osnap.get(i - 1)) {
                throw new ConfigException("osnap_iter must not decrease, found "
                        + ValueType.show(s.values().get("osnap_iter")));
            }
        }
        if (osnap.get(osnap.size() - 1) < 1) {
            throw new ConfigException("osnap_iter must end in a positive period, found "
                    + ValueType.show(s.values().get("osnap_iter")));
        }
        boolean authorsFit = fit != Fit.PROJECTED_GRADIENT && s.oneOf("level_fit", LEVEL_FITS).equals("authors");
        return new Params(bits, bucketSize, s.bool("per_layer"), s.bool("ignore_small_buckets"), cdEpochs, inv,
                symmetric, alqgLr, amqLr, amqEpochs, distNum, interval, s.positiveInt("number_of_samples"), osnap,
                authorsFit);
    }

    private static int nonNegativeInt(Settings s, String name) {
        long v = s.longValue(name);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new ConfigException(name + " must be in [0, " + Integer.MAX_VALUE + "], found " + v);
        }
        return (int) v;
    }
}
