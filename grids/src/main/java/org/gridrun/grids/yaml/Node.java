package org.gridrun.grids.yaml;

/**
 * One node of a located YAML tree: a {@link Scalar}, a {@link Sequence} or a {@link Mapping}.
 *
 * <p>Aliases are already resolved when a tree is handed out: an alias is the very node its anchor names, so its
 * mark is where the anchored node was written. Merge keys are resolved as well; no mapping holds a {@code <<} key.
 */
public sealed interface Node permits Scalar, Sequence, Mapping {

    /** Where the node starts in the source. */
    Mark mark();

    /**
     * What the node is, for "found …" in messages: the quoted text of a scalar, "nothing" for null, "a list" or
     * "a mapping".
     */
    String describe();
}
