package org.gridrun.grids;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads {@code zip:} groups: keys whose lists are walked together, one axis per group.
 *
 * <p>{@code zip: {lr: [0.1, 0.05], batch_size: [128, 64]}} is one axis of two points, {@code lr 0.1, batch_size 128}
 * then {@code lr 0.05, batch_size 64}; {@code zip: [{…}, {…}]} gives one axis per group. The lists of a group must
 * have the same length (a scalar is a list of one; a generator counts its values). A value may carry overrides:
 * the point then spans them.
 */
final class ZipReader {
    private final KeyCheck keys;
    private final ProblemList problems;
    private final ValueReader values;

    ZipReader(KeyCheck keys, ValueReader values) {
        this.keys = keys;
        this.problems = keys.problems();
        this.values = values;
    }

    /** One axis per group of the {@code zip:} entry. */
    List<Axis> read(Mapping.Entry zip) {
        Node node = zip.value();
        List<Node> groups = node instanceof Sequence list ? list.items() : List.of(node);
        if (groups.isEmpty()) {
            problems.add(node.mark(), "zip takes a mapping of keys to lists of equal length, or a list of such"
                    + " mappings; found an empty list");
        }
        List<Axis> axes = new ArrayList<>();
        for (Node group : groups) {
            if (group instanceof Mapping mapping) {
                group(zip.key(), mapping).ifPresent(axes::add);
            } else {
                problems.add(group.mark(), "zip takes a mapping of keys to lists of equal length, or a list of such"
                        + " mappings; found " + group.describe());
            }
        }
        return axes;
    }

    private Optional<Axis> group(Scalar zipKey, Mapping group) {
        if (group.entries().isEmpty()) {
            problems.add(group.mark(), "zip: an empty group; give it keys with lists of equal length");
            return Optional.empty();
        }
        List<List<Space>> columns = new ArrayList<>();
        Mapping.Entry first = group.entries().get(0);
        for (Mapping.Entry entry : group.entries()) {
            if (entry.name().equals(SubGridReader.ZIP)) {
                problems.add(entry.key().mark(), "zip groups do not nest; list several groups as zip: [{…}, {…}]");
                return Optional.empty();
            }
            keys.checkKey(entry.key());
            List<Space> column = values.options(entry.key(), entry.value());
            if (!columns.isEmpty() && column.size() != columns.get(0).size()) {
                problems.add(entry.value().mark(), "zip: " + entry.name() + " has " + column.size()
                        + " values but " + first.name() + " has " + columns.get(0).size()
                        + "; zipped keys need lists of the same length");
                return Optional.empty();
            }
            columns.add(column);
        }
        List<Space> points = new ArrayList<>();
        for (int i = 0; i < columns.get(0).size(); i++) {
            int at = i;
            points.add(Space.product(columns.stream().map(column -> column.get(at)).toList(), problems,
                    group.mark()));
        }
        Space space = Space.union(points);
        return space.points().isEmpty() ? Optional.empty() : Optional.of(new Axis(zipKey, null, space));
    }
}
