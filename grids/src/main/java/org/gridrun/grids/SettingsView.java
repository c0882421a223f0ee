package org.gridrun.grids;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * An experiment's params or texts as an unmodifiable map over its shared settings, in key order.
 *
 * <p>An experiment of a large grid holds only an array of settings; its maps are views of that array, looked up by
 * a linear scan (an experiment sets tens of keys, not thousands).
 *
 * @param <V> {@code Object} for params, {@code String} for texts
 */
final class SettingsView<V> extends AbstractMap<String, V> {
    private final Setting[] settings;
    private final Function<Setting, V> field;

    private SettingsView(Setting[] settings, Function<Setting, V> field) {
        this.settings = settings;
        this.field = field;
    }

    /** The values of {@code settings}, which the caller no longer changes. */
    static SettingsView<Object> params(Setting[] settings) {
        return new SettingsView<>(settings, Setting::value);
    }

    /** The texts of {@code settings}, which the caller no longer changes. */
    static SettingsView<String> texts(Setting[] settings) {
        return new SettingsView<>(settings, Setting::text);
    }

    /** Whether {@code other} views the same settings, so that both have the same keys. */
    boolean sameSettings(SettingsView<?> other) {
        return settings == other.settings;
    }

    /** Where the value of {@code key} was written, as {@code file:line:col}. */
    Optional<String> origin(Object key) {
        Setting setting = find(key);
        return setting == null ? Optional.empty() : Optional.of(setting.origin().toString());
    }

    @Override
    public int size() {
        return settings.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) != null;
    }

    @Override
    public V get(Object key) {
        Setting setting = find(key);
        return setting == null ? null : field.apply(setting);
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, V>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < settings.length;
                    }

                    @Override
                    public Entry<String, V> next() {
                        if (next >= settings.length) {
                            throw new NoSuchElementException();
                        }
                        Setting setting = settings[next++];
                        return new SimpleImmutableEntry<>(setting.key(), field.apply(setting));
                    }
                };
            }

            @Override
            public int size() {
                return settings.length;
            }
        };
    }

    private Setting find(Object key) {
        for (Setting setting : settings) {
            if (setting.key().equals(key)) {
                return setting;
            }
        }
        return null;
    }
}
