/**
 * The grid language: experiment grids in YAML, validated with {@code file:line:col} messages and expanded into
 * named, hashed experiments.
 *
 * <p>A grid file ({@code grids/<name>.yaml}) holds named runs. A run is a list of sub-grids, expanded in order and
 * joined; a sub-grid is an ordered mapping whose keys span a cartesian product in key order, the last key varying
 * fastest; a scalar is a one-value list. File-wide {@code defaults} are merged under every sub-grid, and a run's
 * {@code seeds} add a last, fastest axis {@code seed}. This follows {@code grid_run.py} of the ALQ/AMQ code.
 *
 * <p>Entry points: {@link org.gridrun.grids.GridFile#resolve} finds a file from a {@code --grid} argument,
 * {@link org.gridrun.grids.GridFile#load} reads and validates it against the trainer's
 * {@link org.gridrun.grids.KeySchema}, and {@link org.gridrun.grids.GridFile#expand} lists a run's
 * {@link org.gridrun.grids.Experiment}s. Every problem is a {@link org.gridrun.grids.GridException}.
 */
package org.gridrun.grids;
