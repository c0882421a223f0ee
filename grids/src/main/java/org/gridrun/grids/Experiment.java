package org.gridrun.grids;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
 * with the same id run the same configuration, whatever their run, name or index. It is the first 16 hex digits of
 * the SHA-256 of the canonical config, version tag {@code gridrun-config-v1}: params sorted by key, numbers
 * normalised so that {@code 1e-4}, {@code 0.0001} and {@code 0.00010} agree and {@code 4.0} equals {@code 4}.
 *
 * <p>An experiment of a grid file also knows where each of its values was written ({@link #origin}). Its maps are
 * views of settings it shares with the other experiments of its run, and its id is computed when first asked for,
 * so that listing a large grid stays fast and small. Experiments are immutable; two are equal when every field is.
 */
public final class Experiment {
    private final String grid;
    private final String run;
    private final int index;
    private final String name;
    private final Map<String, Object> params;
    private final Map<String, String> texts;
    /** A grid file's shared settings, of which params and texts are views made on demand; else null. */
    private final Setting[] settings;
    private volatile String id;

    /**
     * An experiment with the given fields; both maps are copied, keeping their order.
     *
     * @param grid   the grid file's base name, without {@code .yaml}
     * @param run    the run's name inside the grid file
     * @param index  the 0-based position in the run's expansion, after duplicates are dropped
     * @param name   the readable name, safe as a directory name
     * @param id     the config hash of {@code params}
     * @param params the values, in key order
     * @param texts  the values as written, same keys and order
     * @throws IllegalArgumentException when params and texts have different keys
     */
    public Experiment(String grid, String run, int index, String name, String id, Map<String, Object> params,
                      Map<String, String> texts) {
        this(grid, run, index, name, Objects.requireNonNull(id, "id"),
                Collections.unmodifiableMap(new LinkedHashMap<>(params)),
                Collections.unmodifiableMap(new LinkedHashMap<>(texts)), null);
        if (!this.params.keySet().equals(this.texts.keySet())) {
            throw new IllegalArgumentException("params and texts must have the same keys: " + params.keySet()
                    + " vs " + texts.keySet());
        }
    }

    /** An experiment whose texts are the values' string forms, for callers that build one without a grid file. */
    public Experiment(String grid, String run, int index, String name, String id, Map<String, Object> params) {
        this(grid, run, index, name, id, params, textsOf(params));
    }

    private Experiment(String grid, String run, int index, String name, String id, Map<String, Object> params,
                       Map<String, String> texts, Setting[] settings) {
        this.grid = Objects.requireNonNull(grid, "grid");
        this.run = Objects.requireNonNull(run, "run");
        this.index = index;
        this.name = Objects.requireNonNull(name, "name");
        this.id = id;
        this.params = params;
        this.texts = texts;
        this.settings = settings;
    }

    /** The experiment of a grid file whose values are {@code settings}, shared with no one who changes them. */
    static Experiment of(String grid, String run, int index, String name, Setting[] settings) {
        return new Experiment(grid, run, index, name, null, null, null, settings);
    }

    /** The grid file's base name, without {@code .yaml}. */
    public String grid() {
        return grid;
    }

    /** The run's name inside the grid file. */
    public String run() {
        return run;
    }

    /** The 0-based position in the run's expansion, after duplicates are dropped. */
    public int index() {
        return index;
    }

    /** The readable name, safe as a directory name. */
    public String name() {
        return name;
    }

    /** The config hash of {@link #params()}: 16 lower-case hex digits. */
    public String id() {
        String known = id;
        if (known == null) {
            known = ConfigHash.id(settings);
            id = known;
        }
        return known;
    }

    /** The values, in key order, unmodifiable. */
    public Map<String, Object> params() {
        return settings == null ? params : SettingsView.params(settings);
    }

    /** The values as written, same keys and order as {@link #params()}, unmodifiable. */
    public Map<String, String> texts() {
        return settings == null ? texts : SettingsView.texts(settings);
    }

    /**
     * Where this experiment's value of {@code key} was written, as {@code file:line:col} (the file as given to
     * {@link GridFile#load}, or as an include resolved it), so that a value the trainer rejects can be pointed at.
     *
     * <p>A generated value is located at its generator, a seed at {@code seeds:}. Empty when the experiment does not
     * set {@code key} or was not read from a grid file.
     */
    public Optional<String> origin(String key) {
        return settings == null ? Optional.empty() : SettingsView.params(settings).origin(key);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Experiment e && index == e.index && grid.equals(e.grid) && run.equals(e.run)
                && name.equals(e.name) && id().equals(e.id()) && params().equals(e.params())
                && texts().equals(e.texts());
    }

    @Override
    public int hashCode() {
        return Objects.hash(grid, run, index, name, id(), params());
    }

    @Override
    public String toString() {
        return "Experiment[grid=" + grid + ", run=" + run + ", index=" + index + ", name=" + name + ", id=" + id()
                + ", params=" + params() + ", texts=" + texts() + "]";
    }

    private static Map<String, String> textsOf(Map<String, Object> params) {
        Map<String, String> texts = new LinkedHashMap<>();
        params.forEach((k, v) -> texts.put(k, String.valueOf(v)));
        return texts;
    }
}
