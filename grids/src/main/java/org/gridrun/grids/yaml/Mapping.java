package org.gridrun.grids.yaml;

import java.util.List;
import java.util.Optional;

/**
 * A YAML mapping whose entries keep the order in which they were written.
 *
 * <p>Keys are unique: the reader reports a repeated key as a problem and keeps the first entry.
 *
 * @param entries the entries in source order
 * @param mark    where the mapping starts
 */
public record Mapping(List<Entry> entries, Mark mark) implements Node {

    /**
     * One key and its value.
     *
     * @param key   the key scalar: its text is the key's name, its value typed as a value's would be (an
     *              unquoted {@code 3} is the integer 3)
     * @param value the value node
     */
    public record Entry(Scalar key, Node value) {

        /** The key's name as written. */
        public String name() {
            return key.text();
        }
    }

    /** Copies the entries into an unmodifiable list. */
    public Mapping {
        entries = List.copyOf(entries);
    }

    /** The entry for {@code name}, if the mapping holds one. */
    public Optional<Entry> entry(String name) {
        return entries.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** The value for {@code name}, if the mapping holds one. */
    public Optional<Node> get(String name) {
        return entry(name).map(Entry::value);
    }

    @Override
    public String describe() {
        return "a mapping";
    }
}
