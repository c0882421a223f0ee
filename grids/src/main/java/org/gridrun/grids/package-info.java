/**
 * The grid language: experiment grids in YAML, validated with {@code file:line:col} messages and expanded into
 * named, hashed experiments.
 *
 * <p>A grid file ({@code grids/<name>.yaml}) holds named runs. A run is a list of sub-grids, expanded in order and
 * joined; a sub-grid is an ordered mapping whose keys span a cartesian product in key order, the last key varying
 * fastest; a scalar is a one-value list. A value may carry overrides ({@code nuq: {mul: 0.5}}: the value times the
 * product of its override mapping, whose keys follow it), keys may vary together in {@code zip:} groups, and
 * generators ({@code range}, {@code linspace}, {@code logspace}, {@code geomspace}, {@code sample}) give values by
 * rule. File-wide {@code defaults} are merged under every sub-grid, and a run's {@code seeds} add a last, fastest
 * axis {@code seed}. This follows {@code grid_run.py} of the ALQ/AMQ code and its {@code deep_product}. A file may
 * {@code include} others, set SLURM options ({@code slurm:}) for itself and its runs, and order runs
 * ({@code after:}).
 *
 * <p>Entry points: {@link org.gridrun.grids.GridFile#resolve} finds a file from a {@code --grid} argument,
 * {@link org.gridrun.grids.GridFile#load} reads and validates it against the trainer's
 * {@link org.gridrun.grids.KeySchema}, {@link org.gridrun.grids.GridFile#expand} lists a run's
 * {@link org.gridrun.grids.Experiment}s, {@link org.gridrun.grids.GridFile#slurm} and
 * {@link org.gridrun.grids.GridFile#dependencies} say how its jobs are scheduled. Every problem is a
 * {@link org.gridrun.grids.GridException}. {@code docs/grid-language.md} is the reference for users.
 *
 * <p>Inside: readers turn YAML nodes into {@code Space}s (points made of shared {@code Setting}s), sub-grids into
 * {@code Axis} lists merged with defaults ({@code Defaults}, {@code SubGrid}), and the {@code Expander} walks each
 * product, sharing settings between experiments so that a grid of 100,000 experiments expands in a fraction of a
 * second.
 */
package org.gridrun.grids;
