package org.gridrun.jobs.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The fastest and the median milliseconds of a benchmark's timed steps: the minimum shows what the code can do when
 * nothing else runs, the median what a run of it takes on a machine shared with others.
 *
 * @param min    the fastest step
 * @param median the median step
 */
record StepTimes(double min, double median) {
    /** No measurement (the PyTorch side skipped or missing). */
    static final StepTimes NONE = new StepTimes(Double.NaN, Double.NaN);

    /**
     * Steps timed together on a GPU, with one wait at the end: the host queues a step while the device runs the one
     * before, as in training (a PyTorch script that does not synchronise every step; gridrun's trainer between two
     * logged steps), so a step's time is its share of the block's, not its launch latency plus its work.
     */
    static final int GPU_BLOCK = 5;

    /** Steps a timed block on {@code backend}: {@link #GPU_BLOCK} on cuda, 1 on the CPU (each step waits on itself). */
    static int block(String backend) {
        return backend.equals("cuda") ? GPU_BLOCK : 1;
    }

    /**
     * Runs {@code step} {@code warmup} times untimed, then {@code steps} times in blocks of {@code block} (at least
     * one block), each block timed until {@code sync} has waited for its work; a step's time is its block's over
     * {@code block}. A block of 1 with a step that waits for itself times every step alone (the CPU).
     */
    static StepTimes measure(Runnable step, Runnable sync, int warmup, int steps, int block) {
        for (int i = 0; i < warmup; i++) {
            step.run();
        }
        sync.run();
        List<Double> times = new ArrayList<>();
        for (int b = 0; b < Math.max(1, steps / block); b++) {
            long t = System.nanoTime();
            for (int i = 0; i < block; i++) {
                step.run();
            }
            sync.run();
            times.add((System.nanoTime() - t) / 1e6 / block);
        }
        return of(times);
    }

    /** The fastest and median of {@code millis}, which must not be empty. */
    static StepTimes of(List<Double> millis) {
        List<Double> times = new ArrayList<>(millis);
        times.sort(null);
        int mid = times.size() / 2;
        double median = times.size() % 2 == 1 ? times.get(mid) : (times.get(mid - 1) + times.get(mid)) / 2;
        return new StepTimes(times.get(0), median);
    }
}
