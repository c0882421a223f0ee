package org.gridrun.grids;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The keys a trainer accepts and the rule each value must follow; the grid checks every key and value against it.
 *
 * <p>The grid module knows no trainer: the caller passes the schema to {@link GridFile#load}. The loader calls
 * {@link #keys()} first, then {@link #problem} once for each value written for a known key; unknown keys never
 * reach {@code problem}. Values are {@code Long}, {@code Double}, {@code Boolean} or {@code String}; a flag without
 * a value is the empty string. A run's {@code seeds} are checked as values of the key {@code seed}, which a schema
 * must list for runs to use them.
 *
 * <p>Implementations must not throw; a value they reject is reported at the place it was written.
 */
public interface KeySchema {

    /** Every key the trainer accepts. */
    Set<String> keys();

    /**
     * What is wrong with {@code value} for {@code key}, or empty when the value is acceptable.
     *
     * <p>The text follows the key in the message, so it reads {@code must be an integer, found 'four'} to give
     * {@code bits must be an integer, found 'four'}.
     *
     * @param key   a key from {@link #keys()}
     * @param value a {@code Long}, {@code Double}, {@code Boolean} or {@code String}
     */
    Optional<String> problem(String key, Object value);

    /**
     * The values {@code key} may take when they form a fixed set (method names, say), else an empty list.
     *
     * <p>The loader checks a value that passed {@link #problem} against them and suggests the closest one.
     */
    default List<String> choices(String key) {
        return List.of();
    }
}
