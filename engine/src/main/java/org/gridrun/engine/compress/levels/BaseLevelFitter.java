package org.gridrun.engine.compress.levels;

/** Argument checks and the keep-the-best bookkeeping shared by the fitters. */
abstract class BaseLevelFitter implements LevelFitter {

    @Override
    public final FittedLevels fit(Density density, int levelCount) {
        check(density, levelCount);
        return fitChecked(density, levelCount);
    }

    /** Fails as {@link LevelFitter#fit} promises for a density outside [-1, 1] or an odd or small level count. */
    static void check(Density density, int levelCount) {
        if (!(density.lower() >= -1 && density.upper() <= 1)) {
            throw new IllegalArgumentException("density must be supported within [-1, 1], found [" + density.lower()
                    + ", " + density.upper() + "]");
        }
        if (levelCount < 2 || levelCount % 2 != 0) {
            throw new IllegalArgumentException("levelCount must be even and at least 2, found " + levelCount);
        }
    }

    /** {@link #fit} after its arguments were checked. */
    abstract FittedLevels fitChecked(Density density, int levelCount);

    /** How an ALQ fitter moves interior level {@code j} of {@code levels}, its neighbours fixed. */
    @FunctionalInterface
    interface LevelStep {
        double level(Density density, double[] levels, int j);
    }

    /**
     * ALQ's fit: from each of {@link #alqStarts} (its upper half behind a fixed 0 when {@code symmetric}, mirrored
     * after), {@code epochs} sweeps over the interior levels moving each by {@code step}; the levels of lowest proxy.
     */
    static FittedLevels bestOfAlqStarts(Density density, int levelCount, int epochs, boolean symmetric,
                                        LevelStep step) {
        double[] best = null;
        double bestProxy = Double.POSITIVE_INFINITY;
        for (double[] start : alqStarts(density, levelCount)) {
            double[] levels = symmetric ? positiveHalf(start) : start;
            for (int e = 0; e < epochs; e++) {
                for (int j = 1; j + 1 < levels.length; j++) {
                    levels[j] = step.level(density, levels, j);
                }
            }
            if (symmetric) {
                levels = mirrored(levels);
            }
            double proxy = VarianceProxy.value(density, levels);
            if (proxy < bestProxy) {
                best = levels;
                bestProxy = proxy;
            }
        }
        return new FittedLevels(best, bestProxy, Double.NaN);
    }

    /** Fails unless {@code epochs} is at least {@code least}. */
    static void checkEpochs(int epochs, int least) {
        if (epochs < least) {
            throw new IllegalArgumentException("epochs must be " + (least == 0 ? "non-negative" : "at least " + least)
                    + ", found " + epochs);
        }
    }

    /** Fails unless {@code learningRate} is positive and finite. */
    static void checkRate(double learningRate) {
        if (!(learningRate > 0 && Double.isFinite(learningRate))) {
            throw new IllegalArgumentException("learningRate must be positive, found " + learningRate);
        }
    }

    /** The three starts of ALQ, in the order they are tried: quantiles, uniform, exponential with p = 0.5. */
    static double[][] alqStarts(Density density, int levelCount) {
        return new double[][] {
            StartingLevels.quantiles(density, levelCount),
            StartingLevels.uniform(levelCount),
            StartingLevels.exponential(levelCount, 0.5),
        };
    }

    /**
     * The upper half of sorted levels behind a fixed level 0: {@code [0, l_{s/2}, …, l_{s−1}]}, each raised to at
     * least the one before, so that the half is sorted even when a start puts upper levels below zero.
     */
    static double[] positiveHalf(double[] levels) {
        int half = levels.length / 2;
        double[] h = new double[half + 1];
        for (int j = 1; j <= half; j++) {
            h[j] = Math.max(h[j - 1], levels[half + j - 1]);
        }
        return h;
    }

    /** The full level set {@code −h_m, …, −h_1, h_1, …, h_m} of a positive half {@code [0, h_1, …, h_m]}. */
    static double[] mirrored(double[] half) {
        int m = half.length - 1;
        double[] l = new double[2 * m];
        for (int j = 1; j <= m; j++) {
            l[m - j] = -half[j];
            l[m + j - 1] = half[j];
        }
        return l;
    }
}
