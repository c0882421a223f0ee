package org.gridrun.reports;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * File names for the site's pages and figures: each name (an experiment, a metric such as {@code levels/3}) maps to
 * a distinct name made of letters, digits, {@code .}, {@code _} and {@code -}, the same one each time it is asked.
 */
final class Slugs {
    private final Map<String, String> byKey = new HashMap<>();
    private final Set<String> taken = new HashSet<>();

    /** The file name of {@code name}: its safe form, with {@code -2}, {@code -3}… when another name took it. */
    String of(String name) {
        return of(name, name);
    }

    /**
     * The file name of the thing {@code key} (an experiment id), made from {@code name}: two experiments of different
     * runs may share a name, and each still gets its own page.
     */
    String of(String key, String name) {
        return byKey.computeIfAbsent(key, k -> {
            String base = safe(name);
            String slug = base;
            for (int i = 2; !taken.add(slug.toLowerCase(java.util.Locale.ROOT)); i++) {
                slug = base + "-" + i;
            }
            return slug;
        });
    }

    /** {@code name} with every character outside {@code [A-Za-z0-9._-]} replaced by {@code _}. */
    static String safe(String name) {
        String slug = name.replaceAll("[^A-Za-z0-9._-]", "_");
        if (slug.isEmpty() || slug.startsWith(".")) {
            slug = "_" + slug;
        }
        return slug;
    }
}
