package org.gridrun.engine.compress;

import java.util.Random;

/** Gradients and round trips that the compressor tests share. */
final class TestGradients {
    private TestGradients() {
    }

    /** {@code n} standard normal values, as floats, from {@code new Random(seed)}. */
    static float[] gaussian(int n, long seed) {
        Random rng = new Random(seed);
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) rng.nextGaussian();
        }
        return g;
    }

    /** {@code g} encoded by {@code c} and decoded again. */
    static float[] roundTrip(Compressor c, float[] g) {
        float[] out = new float[g.length];
        c.decode(c.encode(g, 0, g.length), out, 0);
        return out;
    }
}
