package org.gridrun.engine.compress.levels;

/**
 * Chooses quantization levels that make the {@link VarianceProxy} small under a density on [-1, 1].
 *
 * <p>Call {@link #fit} whenever the density changes (for ALQ, every few thousand steps, on fresh gradient
 * statistics); fitters hold only their configuration, so one instance may fit any number of densities, from any
 * thread. The result is sorted, lies in [-1, 1], and starts at -1 and ends at +1,
 * whatever part of [-1, 1] the density covers.
 */
public interface LevelFitter {

    /**
     * Fits {@code levelCount} levels to the density.
     *
     * @param density a density supported on [-1, 1] or a part of it (a truncated interval)
     * @param levelCount s = 2^bits, even and at least 2
     * @throws IllegalArgumentException if the density's support is not within [-1, 1] or levelCount is odd or below 2
     */
    FittedLevels fit(Density density, int levelCount);

    /**
     * Fits {@code levelCount} levels to the density, given the exponential family's {@code p} of the levels in use
     * ({@code NaN} before the first fit); fitters that do not start from it ignore it, as this default does.
     *
     * @throws IllegalArgumentException as {@link #fit(Density, int)}
     */
    default FittedLevels fit(Density density, int levelCount, double previousMultiplier) {
        return fit(density, levelCount);
    }

}
