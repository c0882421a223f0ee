package org.gridrun.engine.compress.levels;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * Levels chosen by a {@link LevelFitter} and their {@link VarianceProxy} under the density they were fitted to.
 */
public final class FittedLevels {
    private final double[] levels;
    private final double proxy;
    private final double multiplier;

    FittedLevels(double[] levels, double proxy, double multiplier) {
        this.levels = levels.clone();
        this.proxy = proxy;
        this.multiplier = multiplier;
    }

    /** A copy of the levels: sorted, in [-1, 1]. */
    public double[] levels() {
        return levels.clone();
    }

    /** V(levels) under the fitted density. */
    public double proxy() {
        return proxy;
    }

    /** The p of levels +-p^j when the levels come from the exponential family (AMQ), else empty. */
    public OptionalDouble multiplier() {
        return Double.isNaN(multiplier) ? OptionalDouble.empty() : OptionalDouble.of(multiplier);
    }

    @Override
    public String toString() {
        return "FittedLevels(proxy=" + proxy + (Double.isNaN(multiplier) ? "" : ", p=" + multiplier) + ", levels="
                + Arrays.toString(levels) + ")";
    }
}
