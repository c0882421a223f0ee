package org.gridrun.grids;

import java.nio.charset.StandardCharsets;

/**
 * One key set to one value: the unit experiments are made of.
 *
 * <p>Settings are made once when a grid is read and shared by every experiment that uses them, so that a large
 * grid costs one array of references per experiment. Each holds, made once, the two things every experiment needs
 * from it: its line of the canonical form that ids hash, and its {@code key_text} part of experiment names.
 */
final class Setting {
    private final String key;
    private final Object value;
    private final String text;
    private final Origin origin;
    private final byte[] canonical;
    private final String namePart;

    /**
     * A setting of {@code key}.
     *
     * @param value  a {@code Long}, {@code Double}, {@code Boolean} or {@code String} (null only in a grid that
     *               fails to load, which is never expanded)
     * @param text   the value as written, or as a generator formatted it
     * @param origin where the value was written
     */
    Setting(String key, Object value, String text, Origin origin) {
        this.key = key;
        this.value = value;
        this.text = text;
        this.origin = origin;
        this.canonical = value == null ? new byte[0] : ConfigHash.line(key, value).getBytes(StandardCharsets.UTF_8);
        this.namePart = ExperimentNames.safe(key + "_" + text);
    }

    String key() {
        return key;
    }

    Object value() {
        return value;
    }

    String text() {
        return text;
    }

    Origin origin() {
        return origin;
    }

    /** This setting's line of {@link ConfigHash#canonical}, in UTF-8. */
    byte[] canonical() {
        return canonical;
    }

    /** {@code key_text}, made safe for a directory name. */
    String namePart() {
        return namePart;
    }

    @Override
    public String toString() {
        return key + "=" + text;
    }
}
