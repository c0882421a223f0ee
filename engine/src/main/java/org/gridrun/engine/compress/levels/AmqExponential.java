package org.gridrun.engine.compress.levels;

/**
 * AMQ's level fitting: the symmetric exponential levels +-p^j, j = 0 ... s/2 - 1, with p learned by gradient descent
 * on the {@link VarianceProxy}.
 *
 * <p>By the chain rule dV/dp = sum_{j &gt;= 1} j p^(j-1) (dV/dl at +p^j - dV/dl at -p^j), the level gradient being
 * exact. From each starting p the descent takes {@code epochs} steps p &lt;- p - learningRate dV/dp, kept inside
 * [1e-6, 1 - 1e-6], and remembers the best p seen (the start included); the lowest proxy over all starts wins.
 */
public final class AmqExponential extends BaseLevelFitter {
    private static final double MIN_P = 1e-6;
    private static final double MAX_P = 1 - 1e-6;

    private final int epochs;
    private final double learningRate;
    private final double[] startingMultipliers;

    /** The AMQ defaults: {@code amq_epochs} 50, {@code amq_lr} 0.7, starting from p = 0.25, 0.5 and 0.75. */
    public AmqExponential() {
        this(50, 0.7, 0.25, 0.5, 0.75);
    }

    /**
     * Creates the fitter.
     *
     * @param epochs gradient steps per start ({@code amq_epochs}), at least 0
     * @param learningRate step size ({@code amq_lr}), positive
     * @param startingMultipliers starting values of p, each in (0, 1), at least one
     * @throws IllegalArgumentException if a value is out of range
     */
    public AmqExponential(int epochs, double learningRate, double... startingMultipliers) {
        if (epochs < 0) {
            throw new IllegalArgumentException("epochs must be non-negative, found " + epochs);
        }
        if (!(learningRate > 0 && Double.isFinite(learningRate))) {
            throw new IllegalArgumentException("learningRate must be positive, found " + learningRate);
        }
        if (startingMultipliers.length == 0) {
            throw new IllegalArgumentException("startingMultipliers must hold at least one p, found none");
        }
        for (double p : startingMultipliers) {
            if (!(p > 0 && p < 1)) {
                throw new IllegalArgumentException("startingMultipliers must lie in (0, 1), found " + p);
            }
        }
        this.epochs = epochs;
        this.learningRate = learningRate;
        this.startingMultipliers = startingMultipliers.clone();
    }

    public int epochs() {
        return epochs;
    }

    public double learningRate() {
        return learningRate;
    }

    public double[] startingMultipliers() {
        return startingMultipliers.clone();
    }

    @Override
    FittedLevels fitChecked(Density density, int levelCount) {
        double bestP = Double.NaN;
        double bestProxy = Double.POSITIVE_INFINITY;
        double[] grad = new double[levelCount];
        for (double start : startingMultipliers) {
            double p = start;
            for (int e = 0; e <= epochs; e++) {
                double[] levels = StartingLevels.exponential(levelCount, p);
                double proxy = VarianceProxy.value(density, levels);
                if (proxy < bestProxy) {
                    bestProxy = proxy;
                    bestP = p;
                }
                if (e < epochs) {
                    p = Math.max(MIN_P, Math.min(MAX_P, p - learningRate * derivative(density, levels, p, grad)));
                }
            }
        }
        return new FittedLevels(StartingLevels.exponential(levelCount, bestP), bestProxy, bestP);
    }

    /** dV/dp at the exponential levels for p; {@code grad} is scratch space as long as the levels. */
    static double derivative(Density density, double[] levels, double p, double[] grad) {
        VarianceProxy.gradient(density, levels, grad);
        int s = levels.length;
        int half = s / 2;
        double d = 0;
        for (int j = 1; j < half; j++) {
            double dl = j * Math.pow(p, j - 1);
            d += dl * (grad[s - 1 - j] - grad[j]);
        }
        return d;
    }
}
