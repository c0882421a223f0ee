package org.gridrun.jobs.slurm;

import java.util.ArrayList;
import java.util.List;

/**
 * How experiments are spread over task scripts and task scripts over job arrays.
 *
 * <p>As in the seed, experiment {@code j} goes to script {@code j mod N} (round robin), so each script gets a mix of
 * the grid; unlike the seed, no script is left empty when there are fewer experiments than N. Arrays hold at most the
 * cluster's limit of tasks each; array {@code c} runs scripts {@code first … first + tasks - 1}.
 */
public final class ScriptLayout {
    private ScriptLayout() {
    }

    /** The items of {@code items} over at most {@code scripts} scripts (0: one script each), round robin. */
    public static <T> List<List<T>> roundRobin(List<T> items, int scripts) {
        int n = scripts <= 0 ? items.size() : Math.min(scripts, items.size());
        List<List<T>> result = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            result.add(new ArrayList<>());
        }
        for (int j = 0; j < items.size(); j++) {
            result.get(j % n).add(items.get(j));
        }
        return result;
    }

    /** One job array: scripts {@code first … first + tasks - 1}. */
    public record Chunk(int first, int tasks) {
    }

    /** Splits {@code scripts} scripts into arrays of at most {@code maxTasks} tasks. */
    public static List<Chunk> chunks(int scripts, int maxTasks) {
        if (maxTasks < 1) {
            throw new IllegalArgumentException("maxTasks must be positive, found " + maxTasks);
        }
        List<Chunk> chunks = new ArrayList<>();
        for (int first = 0; first < scripts; first += maxTasks) {
            chunks.add(new Chunk(first, Math.min(maxTasks, scripts - first)));
        }
        return chunks;
    }
}
