package org.gridrun.grids;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

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

    static String name(String prefix, int index, Map<String, String> texts, Set<String> exclude) {
        StringJoiner pairs = new StringJoiner(",");
        texts.forEach((key, text) -> {
            if (!exclude.contains(key)) {
                pairs.add(key + "_" + text);
            }
        });
        String head = prefix + "_" + String.format(Locale.ROOT, "%03d", index);
        return safe(pairs.length() == 0 ? head : head + "_" + pairs);
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
