package org.gridrun.engine.random;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.gridrun.engine.simd.Simd;

/**
 * A fast counter-based random number generator whose whole state is (seed, stream, counter).
 *
 * <p>Draw {@code i} of stream {@code s} under seed {@code k} is a 64-bit mixing function (the SplitMix64 finaliser)
 * applied to {@code key(k, s) + i·γ}, where {@code γ} is an odd constant and the key mixes seed and stream. Streams
 * are therefore independent sequences that need no coordination: worker {@code w} uses stream {@code w}, the data
 * sampler and the compressor use streams of their own. Each call advances the counter by one; {@link #counter()}
 * and {@link #seek(long)} move the position, and {@link #saveState}/{@link #restoreState} write and read it in a
 * checkpoint.
 *
 * <p>Not thread-safe: one generator per worker.
 */
public final class CounterRng {
    static final long GAMMA = 0x9E3779B97F4A7C15L;
    private static final float FLOAT_UNIT = 0x1.0p-24f;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private final long seed;
    private final long stream;
    private final long key;
    private long counter;

    /** A generator at counter zero of {@code stream} under {@code seed}. */
    public CounterRng(long seed, long stream) {
        this(seed, stream, 0);
    }

    /** A generator positioned at {@code counter} of {@code stream} under {@code seed}. */
    public CounterRng(long seed, long stream, long counter) {
        this.seed = seed;
        this.stream = stream;
        this.key = keyOf(seed, stream);
        this.counter = counter;
    }

    /**
     * The key that draw {@code i} mixes with {@code i·γ}: {@code mix(mix(seed) + γ·(stream + 1)) | 1}. An encoder
     * on another device computes the same draws from it.
     */
    public static long keyOf(long seed, long stream) {
        return mix(mix(seed) + GAMMA * (stream + 1)) | 1L;
    }

    public long seed() {
        return seed;
    }

    public long stream() {
        return stream;
    }

    /** How many draws this generator has made since counter zero. */
    public long counter() {
        return counter;
    }

    /** Moves to {@code position}; the next draw is the one a fresh generator makes after that many draws. */
    public void seek(long position) {
        this.counter = position;
    }

    /** Writes seed, stream and counter: 24 bytes. */
    public void saveState(DataOutput out) throws IOException {
        out.writeLong(seed);
        out.writeLong(stream);
        out.writeLong(counter);
    }

    /**
     * Reads what {@link #saveState} wrote and moves to its counter.
     *
     * <p>Fails with an {@link IllegalStateException} when the saved seed or stream is not this generator's: a
     * position only means something on its own stream.
     */
    public void restoreState(DataInput in) throws IOException {
        long savedSeed = in.readLong();
        long savedStream = in.readLong();
        long savedCounter = in.readLong();
        if (savedSeed != seed || savedStream != stream) {
            throw new IllegalStateException("saved random state is of seed " + savedSeed + ", stream " + savedStream
                    + "; this generator has seed " + seed + ", stream " + stream);
        }
        seek(savedCounter);
    }

    /** The next uniformly distributed 64-bit value. */
    public long nextLong() {
        return at(counter++);
    }

    /**
     * Draw number {@code position} of this stream, without moving: what {@link #nextLong()} returns when the counter
     * is {@code position}. Safe to call from several threads, so that each can draw the part of a step it handles.
     */
    public long at(long position) {
        return mix(key + GAMMA * position);
    }

    /**
     * Fills {@code out[0 … count)} with the 16-bit uniforms of values {@code from} onward of a stretch of the stream
     * that starts at draw {@code first}, four per draw: value {@code e} takes bits {@code 48 − 16·(e mod 4)} to
     * {@code 63 − 16·(e mod 4)} of draw {@code first + e/4}. Does not move the counter, and is safe from several
     * threads, as {@link #at} is; with the Vector API ({@link Simd}) whole vectors of draws at once, the same values.
     */
    public void uniforms16(long first, int from, int[] out, int count) {
        int j = 0;
        for (; j < count && (from + j & 3) != 0; j++) {
            out[j] = uniform16(first, from + j);
        }
        if (Simd.enabled() && j < count) {
            j += VectorDraws.fill(key, first, from + j, out, j, count - j);
        }
        for (; j < count; j++) {
            out[j] = uniform16(first, from + j);
        }
    }

    /**
     * Fills {@code out[0 … count)} with the 32-bit uniforms (as ints, to be read unsigned) of values {@code from}
     * onward of a stretch of the stream that starts at draw {@code first}, two per draw: an even value takes the high
     * half of draw {@code first + e/2}, an odd one the low half. Does not move the counter; vectors as
     * {@link #uniforms16}.
     */
    public void uniforms32(long first, int from, int[] out, int count) {
        int j = 0;
        if ((from & 1) != 0 && count > 0) {
            out[j++] = (int) at(first + (from >>> 1));
        }
        if (Simd.enabled() && j < count) {
            j += VectorDraws.fill32(key, first, from + j, out, j, count - j);
        }
        for (; j < count; j++) {
            long e = from + j;
            long draw = at(first + (e >>> 1));
            out[j] = (int) ((e & 1) == 0 ? draw >>> 32 : draw);
        }
    }

    /** Value {@code e}'s 16-bit uniform of the stretch from draw {@code first} ({@link #uniforms16}). */
    public int uniform16(long first, long e) {
        return (int) (at(first + (e >>> 2)) >>> (48 - 16 * (e & 3))) & 0xFFFF;
    }

    /** The next uniform float in [0, 1), with 24 random bits. */
    public float nextFloat() {
        return (nextLong() >>> 40) * FLOAT_UNIT;
    }

    /** The next uniform double in [0, 1), with 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /**
     * The next integer in [0, bound), by multiply-and-shift of 32 random bits.
     *
     * <p>The bias is below {@code bound / 2^32}, far under anything a shuffle of a data set can show.
     */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, found " + bound);
        }
        return (int) (((nextLong() >>> 32) * bound) >>> 32);
    }

    /** The SplitMix64 finaliser: a bijective 64-bit mix with full avalanche. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public String toString() {
        return "CounterRng(seed=" + seed + ", stream=" + stream + ", counter=" + counter + ")";
    }
}
