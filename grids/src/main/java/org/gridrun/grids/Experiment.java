package org.gridrun.grids;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One point of a grid: the values a run sets for one trainer invocation, with a readable name and a stable id.
 *
 * <p>{@code params} holds the grid's values in key order (merged defaults first, {@code seed} last when the run has
 * {@code seeds}); each is a {@code Long}, {@code Double}, {@code Boolean} or {@code String}, and a flag without a
 * value is the empty string. {@code texts} holds each value as the researcher wrote it ({@code 0.0001} stays
 * {@code "0.0001"} where the param is the {@code Double} 1.0E-4); names are made from it.
 *
 * <p>{@code name} is {@code <prefix>_<NNN>_<k>_<v>,<k>_<v>,…} over the keys the run does not exclude, with
 * {@code NNN} the index padded to three digits. {@code id} is the config hash of {@code params}: two experiments
 * with the same id run the same configuration, whatever their run, name or index.
 *
 * @param grid   the grid file's base name, without {@code .yaml}
 * @param run    the run's name inside the grid file
 * @param index  the 0-based position in the run's expansion, after duplicates are dropped
 * @param name   the readable name, safe as a directory name
 * @param id     the first 16 hex digits of the SHA-256 of the canonical config, version tag
 *               {@code gridrun-config-v1}: params sorted by key, numbers normalised so that {@code 1e-4},
 *               {@code 0.0001} and {@code 0.00010} agree and {@code 4.0} equals {@code 4}
 * @param params the values, in key order, unmodifiable
 * @param texts  the values as written, same keys and order, unmodifiable
 */
public record Experiment(String grid, String run, int index, String name, String id, Map<String, Object> params,
                         Map<String, String> texts) {

    /** Checks the fields and copies both maps, keeping their order. */
    public Experiment {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        texts = Collections.unmodifiableMap(new LinkedHashMap<>(texts));
        if (!params.keySet().equals(texts.keySet())) {
            throw new IllegalArgumentException("params and texts must have the same keys: " + params.keySet()
                    + " vs " + texts.keySet());
        }
    }

    /** An experiment whose texts are the values' string forms, for callers that build one without a grid file. */
    public Experiment(String grid, String run, int index, String name, String id, Map<String, Object> params) {
        this(grid, run, index, name, id, params, textsOf(params));
    }

    /** TEMPORARY until the grids-lang branch lands. */
    public java.util.Optional<String> origin(String key) {
        return java.util.Optional.empty();
    }

    private static Map<String, String> textsOf(Map<String, Object> params) {
        Map<String, String> texts = new LinkedHashMap<>();
        params.forEach((k, v) -> texts.put(k, String.valueOf(v)));
        return texts;
    }
}
