/**
 * Fitting of quantization levels to a gradient distribution, the mathematics of ALQ and AMQ (adaptive gradient
 * quantization).
 *
 * <p>Normalised gradient coordinates r in [-1, 1] are rounded stochastically and unbiasedly to one of their two
 * neighbouring levels l_j &lt;= r &lt;= l_{j+1}, which costs variance (r - l_j)(l_{j+1} - r). Averaged over a
 * {@link org.gridrun.engine.compress.levels.Density} f this gives the
 * {@link org.gridrun.engine.compress.levels.VarianceProxy}
 * V(l) = sum_j integral over [l_j, l_{j+1}] of (r - l_j)(l_{j+1} - r) f(r) dr, which the
 * {@link org.gridrun.engine.compress.levels.LevelFitter} implementations minimise: coordinate descent
 * ({@code alq}), projected gradient descent ({@code alqg}) and the one-parameter exponential family ({@code amq}).
 * {@link org.gridrun.engine.compress.levels.DensityFit} builds f from observed values: one truncated normal
 * (norm-less) or a norm-weighted mixture of per-bucket truncated normals (norm-based, {@code _nb}).
 *
 * <p>Every density here has closed-form partial moments, so V and its gradient are exact: no numerical integration.
 */
package org.gridrun.engine.compress.levels;
