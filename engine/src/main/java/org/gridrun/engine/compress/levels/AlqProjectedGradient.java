package org.gridrun.engine.compress.levels;

/**
 * ALQG's level fitting: projected gradient descent on the interior levels.
 *
 * <p>Each step moves the interior levels against the exact gradient of the {@link VarianceProxy}, then projects back
 * onto the feasible set (clamped into [-1, 1] and sorted; the ends stay at -1 and +1). A step that does not lower the
 * proxy is rejected and the learning rate halved, so the proxy never rises. Runs from the same three starts as
 * {@link AlqCoordinateDescent} and keeps the best.
 */
public final class AlqProjectedGradient extends BaseLevelFitter {
    private final int epochs;
    private final double learningRate;

    /**
     * Creates the fitter.
     *
     * @param epochs number of gradient steps per start, at least 1
     * @param learningRate initial step size, positive
     * @throws IllegalArgumentException if a value is out of range
     */
    public AlqProjectedGradient(int epochs, double learningRate) {
        if (epochs < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, found " + epochs);
        }
        if (!(learningRate > 0 && Double.isFinite(learningRate))) {
            throw new IllegalArgumentException("learningRate must be positive, found " + learningRate);
        }
        this.epochs = epochs;
        this.learningRate = learningRate;
    }

    public int epochs() {
        return epochs;
    }

    public double learningRate() {
        return learningRate;
    }

    @Override
    FittedLevels fitChecked(Density density, int levelCount) {
        double[] best = null;
        double bestProxy = Double.POSITIVE_INFINITY;
        for (double[] start : alqStarts(density, levelCount)) {
            double[] levels = descend(density, start);
            double proxy = VarianceProxy.value(density, levels);
            if (proxy < bestProxy) {
                best = levels;
                bestProxy = proxy;
            }
        }
        return new FittedLevels(best, bestProxy, Double.NaN);
    }

    private double[] descend(Density density, double[] start) {
        double[] levels = start.clone();
        double[] trial = new double[levels.length];
        double[] grad = new double[levels.length];
        double proxy = VarianceProxy.value(density, levels);
        double lr = learningRate;
        for (int e = 0; e < epochs && lr > 1e-12; e++) {
            VarianceProxy.gradient(density, levels, grad);
            trial[0] = levels[0];
            trial[levels.length - 1] = levels[levels.length - 1];
            for (int j = 1; j + 1 < levels.length; j++) {
                trial[j] = Math.max(-1, Math.min(1, levels[j] - lr * grad[j]));
            }
            java.util.Arrays.sort(trial, 1, trial.length - 1);
            double trialProxy = VarianceProxy.value(density, trial);
            if (trialProxy < proxy) {
                System.arraycopy(trial, 0, levels, 0, levels.length);
                proxy = trialProxy;
            } else {
                lr *= 0.5;
            }
        }
        return levels;
    }
}
