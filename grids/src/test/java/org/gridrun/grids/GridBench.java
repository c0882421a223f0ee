package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Times the expansion of a grid of 100,000 experiments: ten keys, five of them with ten values each.
 *
 * <p>Not a unit test (its name matches no surefire pattern, and it asserts no time): run it on demand with
 * {@code mvn -o -q -pl grids test -Dtest=GridBench -Dsurefire.failIfNoSpecifiedTests=false}. It prints the load
 * time, the first (cold) and best expansion times over a few rounds, the time to hash every id once (ids are hashed
 * when first asked for, not during expansion), and the heap the experiments hold.
 */
class GridBench {
    private static final int ROUNDS = 5;

    @TempDir
    Path dir;

    @Test
    void expandOneHundredThousandExperiments() {
        long start = System.nanoTime();
        GridFile grid = Grids.load(dir, """
                defaults: {dataset: fashion-mnist, model: mlp, niters: 300, momentum: 0.9, note: bench}
                runs:
                  big:
                    grid:
                      method: [none, qsgd, qinf, trn, nuq, alq, alq_nb, amq, amq_nb, powersgd]
                      bits: {range: [1, 11]}
                      bucket_size: [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768]
                      lr: {logspace: [-4, -1, 10]}
                      seed: {range: [1, 11]}
                """);
        double loadMs = millisSince(start);
        double first = 0;
        double best = Double.MAX_VALUE;
        double ids = 0;
        List<Experiment> experiments = null;
        for (int round = 0; round < ROUNDS; round++) {
            experiments = null;
            System.gc();
            long t = System.nanoTime();
            experiments = grid.expand("big");
            double ms = millisSince(t);
            first = round == 0 ? ms : first;
            best = Math.min(best, ms);
            if (round == 0) {
                t = System.nanoTime();
                experiments.forEach(Experiment::id);
                ids = millisSince(t);
            }
        }
        assertEquals(100_000, experiments.size());
        System.gc();
        Runtime rt = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "GridBench: load %.0f ms; expand 100000 experiments: first %.0f ms, best of %d"
                + " %.0f ms; every id hashed once: %.0f ms; heap in use %.0f MB (max %.0f MB)%n", loadMs, first,
                ROUNDS, best, ids, (rt.totalMemory() - rt.freeMemory()) / 1e6, rt.maxMemory() / 1e6);
    }

    private static double millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e6;
    }
}
