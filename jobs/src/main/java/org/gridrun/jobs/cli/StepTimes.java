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

    /** Runs {@code step} {@code warmup} times untimed, then times it {@code steps} times. */
    static StepTimes measure(Runnable step, int warmup, int steps) {
        for (int i = 0; i < warmup; i++) {
            step.run();
        }
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            long t = System.nanoTime();
            step.run();
            times.add((System.nanoTime() - t) / 1e6);
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
