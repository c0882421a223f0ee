package org.gridrun.grids.yaml;

import java.util.List;

/**
 * A YAML sequence, block ({@code - a}) or flow ({@code [a, b]}).
 *
 * @param items the items in order
 * @param mark  where the sequence starts
 */
public record Sequence(List<Node> items, Mark mark) implements Node {

    /** Copies the items into an unmodifiable list. */
    public Sequence {
        items = List.copyOf(items);
    }

    @Override
    public String describe() {
        return "a list";
    }
}
