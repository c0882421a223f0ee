package org.gridrun.engine.backend;

/**
 * The constant-time search of a value's two neighbouring levels ({@code LevelSearch}), as tables a device kernel
 * reads: {@code [-1, 1]} cut into {@code below.length} equal cells, each with the highest level at or below its left
 * edge ({@code below}) and the lowest at or above its right edge ({@code above}), and {@code 1/(l_{j+1} − l_j)} per
 * gap ({@code inverseGap}).
 */
public record LevelSearchTable(double[] inverseGap, int[] below, int[] above) {
    /** The number of cells. */
    public int cells() {
        return below.length;
    }
}
