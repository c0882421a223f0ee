/**
 * A YAML tree that remembers where every node was written, read with Jackson's streaming parser.
 *
 * <p>Jackson's tree model forgets source positions, anchors and aliases, and lets duplicate keys pass; the grid
 * language needs all four to name {@code file:line:col} in its messages. {@link org.gridrun.grids.yaml.YamlTreeReader}
 * builds {@link org.gridrun.grids.yaml.Node}s with a {@link org.gridrun.grids.yaml.Mark} each, resolves aliases
 * and merge keys ({@code <<: *shared}, {@code <<: [*a, *b]}) itself, and reports what it cannot accept as
 * {@link org.gridrun.grids.yaml.YamlProblem}s rather than exceptions, so that a caller can report every problem of a
 * file at once.
 *
 * <p>This package supports {@code org.gridrun.grids}; other modules should use {@code GridFile} instead.
 */
package org.gridrun.grids.yaml;
