package org.gridrun.grids.yaml;

import java.util.List;

/**
 * What {@link YamlTreeReader} made of a source: the root node and the problems it found.
 *
 * <p>The root is null when the source holds no document or is not well-formed YAML; in the second case the
 * problems hold the syntax error. Otherwise the tree is complete even when there are problems: an undefined alias
 * reads as a null scalar at the alias, a repeated key keeps its first value.
 *
 * @param root     the root node, or null
 * @param problems the problems in the order found
 */
public record YamlDocument(Node root, List<YamlProblem> problems) {

    /** Copies the problems into an unmodifiable list. */
    public YamlDocument {
        problems = List.copyOf(problems);
    }
}
