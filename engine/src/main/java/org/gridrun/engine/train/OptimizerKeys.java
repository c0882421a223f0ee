package org.gridrun.engine.train;

import java.util.List;
import java.util.function.BiPredicate;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.optim.Adam;
import org.gridrun.engine.optim.DecaySegments;
import org.gridrun.engine.optim.Optimizer;
import org.gridrun.engine.optim.Sgd;

/**
 * The rules between the optimizer and schedule keys that no single key's range says: which optimizer takes which
 * key, which schedule takes the decay milestones, and that milestones and warm-up fit in the run; and the optimizer
 * they describe.
 */
final class OptimizerKeys {
    private static final List<String> SGD_KEYS = List.of("momentum", "nesterov");
    private static final List<String> ADAM_KEYS = List.of("beta1", "beta2", "eps");

    private OptimizerKeys() {
    }

    /**
     * Fails with a {@link ConfigException} naming the key when a value does not fit {@code optim} or the other
     * keys; {@code isDefault} tells whether a key holds its default.
     */
    static void check(Settings s, String optim, BiPredicate<Settings, String> isDefault) {
        List<String> foreign = optim.equals("adam") ? SGD_KEYS : ADAM_KEYS;
        for (String key : foreign) {
            if (!isDefault.test(s, key)) {
                throw new ConfigException(key + " is not a parameter of optim " + optim + "; leave it out or give "
                        + "its default");
            }
        }
        if (s.longValue("warmup_iters") < 0) {
            throw new ConfigException("warmup_iters must not be negative, found " + s.longValue("warmup_iters"));
        }
        String schedule = s.oneOf("lr_schedule", List.of("multistep", "cosine"));
        List<Integer> iters = increasing(s, "lr_decay_iters");
        List<Integer> epochs = increasing(s, "lr_decay_epochs");
        if (!iters.isEmpty() && !epochs.isEmpty()) {
            throw new ConfigException("give lr_decay_iters or lr_decay_epochs, not both");
        }
        String decayKey = epochs.isEmpty() ? "lr_decay_iters" : "lr_decay_epochs";
        if (schedule.equals("cosine") && !(iters.isEmpty() && epochs.isEmpty())) {
            throw new ConfigException(decayKey + " applies to lr_schedule multistep only, not cosine; leave it out");
        }
        long runEpochs = s.longValue("epochs");
        if (!epochs.isEmpty() && runEpochs <= 0) {
            throw new ConfigException("lr_decay_epochs needs epochs > 0; with niters give lr_decay_iters");
        }
        if (runEpochs > 0) {
            requireBefore("lr_decay_epochs", epochs.stream().map(Integer::longValue).toList(), "epochs", runEpochs);
            return;
        }
        long niters = s.longValue("niters");
        requireBefore("lr_decay_iters", iters.stream().map(Integer::longValue).toList(), "niters", niters);
        if (s.longValue("warmup_iters") > niters) {
            throw new ConfigException("warmup_iters must not exceed niters " + niters + ", found "
                    + s.longValue("warmup_iters"));
        }
    }

    /** The optimizer of {@code config} for a model of {@code layout}, its state on {@code backend}. */
    static Optimizer create(TrainerConfig config, Backend backend, TensorLayout layout) {
        int size = layout.tensors().stream().mapToInt(TensorLayout.Tensor::size).sum();
        DecaySegments segments = config.noDecayBnBias() ? DecaySegments.excludingVectors(layout)
                : DecaySegments.all(size);
        return config.optim().equals("adam")
                ? new Adam(backend, segments, config.lr(), config.beta1(), config.beta2(), config.eps(),
                        config.weightDecay())
                : new Sgd(backend, segments, config.lr(), config.momentum(), config.nesterov(), config.weightDecay());
    }

    /**
     * Fails when a milestone of {@code key} lies beyond the run's {@code total} iterations; one at the very end
     * (the seed's mnist grid decays at epoch 30 of 30) is allowed and changes nothing.
     */
    static void requireBefore(String key, List<Long> milestones, long total) {
        requireBefore(key, milestones, "the run's iterations", total);
    }

    private static void requireBefore(String key, List<Long> milestones, String limitName, long limit) {
        for (long m : milestones) {
            if (m > limit) {
                throw new ConfigException(key + " must not exceed " + limitName + " " + limit
                        + " (a later decay never applies), found " + m);
            }
        }
    }

    private static List<Integer> increasing(Settings s, String key) {
        List<Integer> list = s.positiveIntList(key);
        for (int i = 1; i < list.size(); i++) {
            if (list.get(i) <= list.get(i - 1)) {
                throw new ConfigException(key + " must be strictly increasing, found "
                        + ValueType.show(s.values().get(key)));
            }
        }
        return list;
    }
}
