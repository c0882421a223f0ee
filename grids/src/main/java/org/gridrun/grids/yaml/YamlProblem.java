package org.gridrun.grids.yaml;

/**
 * Something in a YAML source that the reader could not accept, with where it was written.
 *
 * @param mark    where the problem is
 * @param message what is wrong and, where possible, how to fix it
 */
public record YamlProblem(Mark mark, String message) {
}
