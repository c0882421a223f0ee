package org.gridrun.engine.compress;

import org.gridrun.engine.random.CounterRng;

/**
 * Stochastic rounding with 16-bit uniforms, four from each 64-bit counter-based draw.
 *
 * <p>Value {@code e} of a step whose draws start at position {@code first} takes the uniform {@code u} at bits
 * {@code 48 − 16·(e mod 4)} of draw {@code first + e/4}: it depends only on the value's position, so two threads that
 * split a vector draw exactly what one would. {@link #floor} rounds {@code t ≥ 0} to {@code floor(t + u/2^16)}: up
 * when {@code floor(f·2^16) + u ≥ 2^16}, {@code f} being {@code t − floor(t)}, so the probability of rounding up falls short of the fraction by less than {@code 2^-16}. That is unbiased to the
 * uniform's resolution: a bias below {@code 2^-16} of one rounding step, far under the rounding's own standard
 * deviation, for a quarter of the generator's work per value of 64-bit draws.
 */
final class Uniform16 {
    private Uniform16() {
    }

    /** The draws {@code n} values take. */
    static long draws(long n) {
        return (n + 3) / 4;
    }

    /** Value {@code e}'s uniform in [0, 2^16) (see the class comment). */
    static int of(CounterRng rng, long first, int e) {
        return rng.uniform16(first, e);
    }

    /** Piece {@code k} in [0, 4) of a draw: bits {@code 48 − 16k} to {@code 63 − 16k}. */
    static int piece(long draw, int k) {
        return (int) (draw >>> (48 - 16 * k)) & 0xFFFF;
    }

    /**
     * {@code floor(t + u/2^16)} for {@code t} in [0, 2^14), in integers: {@code t·2^16} is exact in float, and its
     * truncation loses only what lies below the uniform's resolution. A {@code t} a rounding error below zero gives 0.
     */
    static int floor(float t, int u) {
        return (int) ((long) (t * 0x1.0p16f) + u >> 16);
    }
}
