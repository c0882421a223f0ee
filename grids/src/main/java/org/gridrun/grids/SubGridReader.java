package org.gridrun.grids;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads a mapping of trainer keys into axes: a sub-grid, the defaults, or an override's mapping.
 *
 * <p>Each key is one axis in key order; the reserved key {@code zip} adds one axis per zip group at its place.
 * Across the axes of one mapping (overrides and zip groups included) a key may be set once. An axis is returned
 * whenever it has points, even with problems, so that later checks see its keys.
 */
final class SubGridReader {
    /** The reserved key of zip groups. */
    static final String ZIP = "zip";

    private final KeyCheck keys;
    private final ProblemList problems;
    private final ValueReader values;
    private final ZipReader zips;

    SubGridReader(KeyCheck keys) {
        this.keys = keys;
        this.problems = keys.problems();
        this.values = new ValueReader(keys, this);
        this.zips = new ZipReader(keys, values);
    }

    /** The axes of {@code mapping} in key order; a key that two axes set is a problem. */
    List<Axis> axes(Mapping mapping) {
        List<Axis> axes = read(mapping);
        Space.distinctKeys(axes.stream().map(Axis::keys).toList(), problems);
        return axes;
    }

    /**
     * The space of the overrides that {@code value} carries: the product of a mapping's axes, or the union of a
     * list of such mappings.
     */
    Space space(Node node, String value) {
        if (node instanceof Mapping mapping) {
            if (mapping.entries().isEmpty()) {
                problems.add(mapping.mark(), value + ": an empty mapping of overrides; write the value alone");
                return new Space(List.of(), Map.of());
            }
            return Space.product(read(mapping).stream().map(Axis::space).toList(), problems, mapping.mark());
        }
        if (node instanceof Sequence list) {
            return Space.union(list.items().stream().map(item -> space(item, value)).toList());
        }
        problems.add(node.mark(), value + ": overrides are a mapping of keys to values, or a list of such mappings;"
                + " found " + node.describe());
        return new Space(List.of(), Map.of());
    }

    private List<Axis> read(Mapping mapping) {
        List<Axis> axes = new ArrayList<>();
        for (Mapping.Entry entry : mapping.entries()) {
            if (entry.name().equals(ZIP)) {
                axes.addAll(zips.read(entry));
            } else {
                keys.checkKey(entry.key());
                Space space = values.read(entry.key(), entry.value());
                if (!space.points().isEmpty()) {
                    axes.add(new Axis(entry.key(), entry.name(), space));
                }
            }
        }
        return axes;
    }
}
