package org.gridrun.grids;

import java.util.Set;

/**
 * Readable experiment names: {@code <prefix>_<NNN>_<k>_<v>,<k>_<v>,…}.
 *
 * <p>{@code NNN} is the index padded with zeros to three digits; from 1000 on it simply has more, so a name never
 * changes when a run grows. The pairs cover the keys the run does not exclude, in key order, each value as written;
 * a flag (the empty string) is {@code key_}. When every key is excluded the name is {@code <prefix>_<NNN>}. Slashes,
 * whitespace and control characters (NUL included) become {@code -}, so that a name is one directory name.
 */
final class ExperimentNames {
    private ExperimentNames() {
    }

    /** The name of the experiment at {@code index} with {@code settings}; {@code safePrefix} is already safe. */
    static String name(String safePrefix, int index, Setting[] settings, Set<String> exclude) {
        StringBuilder name = new StringBuilder(safePrefix.length() + 16 * settings.length).append(safePrefix)
                .append('_');
        String digits = Integer.toString(index);
        for (int pad = digits.length(); pad < 3; pad++) {
            name.append('0');
        }
        name.append(digits);
        char separator = '_';
        for (Setting setting : settings) {
            if (!exclude.contains(setting.key())) {
                name.append(separator).append(setting.namePart());
                separator = ',';
            }
        }
        return name.toString();
    }

    static String safe(String name) {
        StringBuilder out = new StringBuilder(name.length());
        name.codePoints().forEach(c -> out.appendCodePoint(unsafe(c) ? '-' : c));
        return out.toString();
    }

    private static boolean unsafe(int c) {
        return c == '/' || c == '\\' || Character.isWhitespace(c) || Character.isSpaceChar(c)
                || Character.isISOControl(c);
    }
}
