package org.gridrun.jobs.local;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.gridrun.engine.backend.Backends;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * How many experiments the local pool runs at once when {@code --jobs} does not say, and why.
 *
 * <p>Experiments on the host take one core each. Experiments that all train on GPUs take {@link #PER_GPU} a GPU (of
 * the fewest any of them sees), at most one a core: a second job's host work (data, evaluation, logging) fills the
 * gaps of the first one's kernels, while more processes only share the GPU in time slices. On an H200, eight
 * paper-gpu runs at once made 105 steps a second in all, where one 4-worker ResNet-20 step alone takes 7.6 ms
 * (131 a second).
 *
 * @param jobs how many at once
 * @param why  the rule that gave it, for the grid's first line; null for the usual one a core (or {@code --jobs})
 */
public record PoolSize(int jobs, String why) {
    /** Experiments at once per GPU, when every experiment to run trains on a GPU. */
    public static final int PER_GPU = 2;

    /** The pool size for {@code toRun} on this machine: its cores and {@link Backends#gpus}. */
    public static PoolSize of(List<PlannedExperiment> toRun, int cores) {
        return of(toRun, cores, Backends::gpus);
    }

    /** The pool size for {@code toRun} on {@code cores} cores, {@code gpus} giving the GPUs of a backend's name. */
    static PoolSize of(List<PlannedExperiment> toRun, int cores, ToIntFunction<String> gpus) {
        PoolSize perCore = new PoolSize(Math.max(1, cores), null);
        Map<String, Integer> seen = new HashMap<>();
        int fewest = Integer.MAX_VALUE;
        for (PlannedExperiment e : toRun) {
            String backend = String.valueOf(e.record().config().getOrDefault("backend", Backends.AUTO));
            int n = seen.computeIfAbsent(backend, gpus::applyAsInt);
            if (n == 0) {
                return perCore;
            }
            fewest = Math.min(fewest, n);
        }
        if (toRun.isEmpty()) {
            return perCore;
        }
        int jobs = Math.max(1, Math.min(PER_GPU * fewest, cores));
        return new PoolSize(jobs, String.format(Locale.ROOT, "%d a GPU on %d GPU%s%s", PER_GPU, fewest,
                fewest == 1 ? "" : "s", jobs < PER_GPU * fewest ? ", one a core" : ""));
    }
}
