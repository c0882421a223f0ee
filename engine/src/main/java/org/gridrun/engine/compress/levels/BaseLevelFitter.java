package org.gridrun.engine.compress.levels;

/** Argument checks and the keep-the-best bookkeeping shared by the fitters. */
abstract class BaseLevelFitter implements LevelFitter {

    @Override
    public final FittedLevels fit(Density density, int levelCount) {
        if (density.lower() != -1 || density.upper() != 1) {
            throw new IllegalArgumentException("density must be supported on [-1, 1], found [" + density.lower()
                    + ", " + density.upper() + "]");
        }
        if (levelCount < 2 || levelCount % 2 != 0) {
            throw new IllegalArgumentException("levelCount must be even and at least 2, found " + levelCount);
        }
        return fitChecked(density, levelCount);
    }

    /** {@link #fit} after its arguments were checked. */
    abstract FittedLevels fitChecked(Density density, int levelCount);

    /** The three starts of ALQ, in the order they are tried: quantiles, uniform, exponential with p = 0.5. */
    static double[][] alqStarts(Density density, int levelCount) {
        return new double[][] {
            StartingLevels.quantiles(density, levelCount),
            StartingLevels.uniform(levelCount),
            StartingLevels.exponential(levelCount, 0.5),
        };
    }
}
