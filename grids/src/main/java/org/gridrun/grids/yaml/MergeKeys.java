package org.gridrun.grids.yaml;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves YAML merge keys: {@code <<: *shared} and {@code <<: [*a, *b]}.
 *
 * <p>The merged keys come first, in the order of the merged mappings and their keys; with a list, a key takes its
 * value from the first mapping that holds it. Explicit keys then override merged ones in place, and keys the merged
 * mappings lack follow in source order. This is the key order PyYAML gives a Python dict, except that PyYAML
 * lists the keys of a merged list from the last mapping on. A merged mapping may itself merge; shared nodes are
 * resolved once.
 */
final class MergeKeys {
    static final String MERGE = "<<";

    private final List<YamlProblem> problems;
    private final Map<Node, Node> resolved = new IdentityHashMap<>();

    MergeKeys(List<YamlProblem> problems) {
        this.problems = problems;
    }

    Node resolve(Node node) {
        Node done = resolved.get(node);
        if (done == null) {
            if (node instanceof Mapping mapping) {
                done = merge(mapping);
            } else if (node instanceof Sequence sequence) {
                done = new Sequence(sequence.items().stream().map(this::resolve).toList(), sequence.mark());
            } else {
                done = node;
            }
            resolved.put(node, done);
        }
        return done;
    }

    private Mapping merge(Mapping mapping) {
        Map<String, Mapping.Entry> entries = new LinkedHashMap<>();
        mapping.entry(MERGE).ifPresent(merge -> sources(merge).forEach(
                source -> source.entries().forEach(e -> entries.putIfAbsent(e.name(), e))));
        for (Mapping.Entry entry : mapping.entries()) {
            if (!entry.name().equals(MERGE)) {
                entries.put(entry.name(), new Mapping.Entry(entry.key(), resolve(entry.value())));
            }
        }
        return new Mapping(new ArrayList<>(entries.values()), mapping.mark());
    }

    private List<Mapping> sources(Mapping.Entry merge) {
        List<Node> items = merge.value() instanceof Sequence list ? list.items() : List.of(merge.value());
        List<Mapping> sources = new ArrayList<>();
        for (Node item : items) {
            if (resolve(item) instanceof Mapping source) {
                sources.add(source);
            } else {
                problems.add(new YamlProblem(item.mark(), "merge key '<<' takes a mapping or a list of mappings,"
                        + " such as *shared or [*a, *b]; found " + item.describe()));
            }
        }
        return sources;
    }
}
