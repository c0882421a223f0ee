package org.gridrun.engine.compress.levels;

/**
 * The level sets the fitters start from: evenly spaced, quantiles of the density, and the exponential family +-p^j.
 *
 * <p>All of them are sorted, lie in [-1, 1] and start at -1 and end at +1.
 */
public final class StartingLevels {
    private StartingLevels() {
    }

    /** Evenly spaced levels -1 + 2j / (s - 1), j = 0 ... s - 1. */
    public static double[] uniform(int levelCount) {
        checkCount(levelCount);
        double[] l = new double[levelCount];
        for (int j = 0; j < levelCount; j++) {
            l[j] = -1 + 2.0 * j / (levelCount - 1);
        }
        l[levelCount - 1] = 1;
        return l;
    }

    /** The quantiles of f at j / (s - 1), with the ends pinned to -1 and +1. */
    public static double[] quantiles(Density f, int levelCount) {
        checkCount(levelCount);
        double[] l = new double[levelCount];
        l[0] = -1;
        l[levelCount - 1] = 1;
        for (int j = 1; j < levelCount - 1; j++) {
            l[j] = Math.max(-1, Math.min(1, f.inverseCdf((double) j / (levelCount - 1))));
        }
        return l;
    }

    /**
     * The symmetric exponential levels -1, -p, ..., -p^(s/2 - 1), p^(s/2 - 1), ..., p, 1 (AMQ's family).
     *
     * @param levelCount s, even and at least 2
     * @param multiplier p in (0, 1)
     * @throws IllegalArgumentException if s is odd or below 2, or p is outside (0, 1)
     */
    public static double[] exponential(int levelCount, double multiplier) {
        checkCount(levelCount);
        if (levelCount % 2 != 0) {
            throw new IllegalArgumentException("levelCount must be even for symmetric levels, found " + levelCount);
        }
        if (!(multiplier > 0 && multiplier < 1)) {
            throw new IllegalArgumentException("multiplier must be in (0, 1), found " + multiplier);
        }
        int half = levelCount / 2;
        double[] l = new double[levelCount];
        for (int j = 0; j < half; j++) {
            double power = Math.pow(multiplier, j);
            l[levelCount - 1 - j] = power;
            l[j] = -power;
        }
        return l;
    }

    static void checkCount(int levelCount) {
        if (levelCount < 2) {
            throw new IllegalArgumentException("levelCount must be at least 2, found " + levelCount);
        }
    }
}
