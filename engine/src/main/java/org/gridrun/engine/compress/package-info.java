/**
 * Gradient compressors, the research object of gridrun: the {@link org.gridrun.engine.compress.Compressor} SPI, the
 * registry of built-in and plugged-in methods by short name ({@link org.gridrun.engine.compress.Compressors}), real
 * bit-packed payloads, and the built-in methods.
 *
 * <p>The bucketed level quantizers {@code qsgd}, {@code qinf}, {@code nuq} and {@code trn} are configurations of one
 * package-private base, {@code LevelQuantizer}: buckets (over the whole gradient or per layer), an L2 or L∞ norm per
 * bucket, and unbiased stochastic rounding to a sorted array of levels in [-1, 1], which methods that learn their
 * levels may replace between steps. {@code natural} rounds each value to a power of two on its own.
 *
 * <p>{@code powersgd} needs two dependent all-reduces per step, which one payload per worker cannot carry: it is a
 * {@link org.gridrun.engine.compress.CollectiveCompressor}, whose step runs for all workers at once.
 */
package org.gridrun.engine.compress;
