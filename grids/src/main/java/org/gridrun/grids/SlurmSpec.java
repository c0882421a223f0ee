package org.gridrun.grids;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a run's jobs are submitted to SLURM: the grid file's {@code slurm:} block with the run's own merged over it.
 *
 * <p>Every field is validated when the grid is loaded. {@code options} become {@code #SBATCH --name=value} lines in
 * file order; {@code extra} follows them verbatim. A job that SLURM preempts requeues itself at most
 * {@code maxRequeues} times, and asks for a signal {@code signalSeconds} before its time limit to save its state.
 * {@code setup} runs in the job's shell before any experiment, with {@code env} exported.
 *
 * @param options       sbatch long option name (without {@code --}) to value, in file order: {@code partition},
 *                      {@code time}, {@code gres}, {@code cpus-per-task}, {@code mem}, {@code account}, {@code qos},
 *                      {@code constraint}, {@code nodes}, {@code ntasks}, {@code mail-type}, {@code mail-user},
 *                      {@code job-name}
 * @param maxRequeues   how often a preempted job requeues itself, 0 or more (default {@value #DEFAULT_MAX_REQUEUES})
 * @param signalSeconds seconds before the time limit at which the job is signalled, from 1 to 65535 (default
 *                      {@value #DEFAULT_SIGNAL_SECONDS})
 * @param setup         shell lines run before the experiments, such as {@code module load java/17}
 * @param env           environment variables to export, name to value, in file order
 * @param extra         raw sbatch options such as {@code --exclusive}, in file order
 */
public record SlurmSpec(Map<String, String> options, int maxRequeues, int signalSeconds, List<String> setup,
                        Map<String, String> env, List<String> extra) {
    /** How often a preempted job requeues itself unless a grid says otherwise. */
    public static final int DEFAULT_MAX_REQUEUES = 3;
    /** How many seconds before its time limit a job is signalled unless a grid says otherwise. */
    public static final int DEFAULT_SIGNAL_SECONDS = 120;

    /** Copies every collection, keeping its order, into an unmodifiable one. */
    public SlurmSpec {
        options = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(options, "options")));
        setup = List.copyOf(setup);
        env = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(env, "env")));
        extra = List.copyOf(extra);
    }

    /**
     * Whether a job asks SLURM for a GPU: {@code gres} names one ({@code gpu:1}, {@code gpu:a100:2}), or an
     * {@code extra} line asks with {@code --gres=gpu…} or {@code --gpus…} ({@code --gpus-per-task=1} …).
     * SLURM gives a job no GPU unless it asks.
     */
    public boolean asksForGpus() {
        String gres = options.getOrDefault("gres", "");
        if (gres.startsWith("gpu") || gres.contains(",gpu")) {
            return true;
        }
        return extra.stream().map(String::strip).anyMatch(line -> line.startsWith("--gpus")
                || line.startsWith("--gres=gpu") || line.startsWith("--gres gpu") || line.startsWith("-G"));
    }

    /** The spec of a grid without any {@code slurm:} block: no options, the default requeues and signal time. */
    public static SlurmSpec empty() {
        return new SlurmSpec(Map.of(), DEFAULT_MAX_REQUEUES, DEFAULT_SIGNAL_SECONDS, List.of(), Map.of(), List.of());
    }
}
