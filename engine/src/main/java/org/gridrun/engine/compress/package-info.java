/**
 * Gradient compressors, the research object of gridrun: the {@link org.gridrun.engine.compress.Compressor} SPI, the
 * registry of built-in and plugged-in methods by short name ({@link org.gridrun.engine.compress.Compressors}), real
 * bit-packed payloads, and the built-in methods {@code none} and {@code qsgd}.
 */
package org.gridrun.engine.compress;
