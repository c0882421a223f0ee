package org.gridrun.grids;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the name a person probably meant, for "did you mean …?" hints.
 *
 * <p>A candidate is close when its optimal-string-alignment distance (Levenshtein plus swaps of neighbours) to the
 * word, ignoring case, is at most 2 (at most 1 for words of three letters or fewer), or when one is a prefix of the
 * other and the shorter has at least three letters. The closest wins; ties go to the alphabetically first.
 */
final class Suggestions {
    private Suggestions() {
    }

    /** The closest candidate to {@code word}, if any is close. */
    static Optional<String> closest(String word, Collection<String> candidates) {
        String w = word.toLowerCase(Locale.ROOT);
        return candidates.stream()
                .filter(c -> !c.equals(word) && close(w, c.toLowerCase(Locale.ROOT)))
                .min(Comparator.comparingInt((String c) -> distance(w, c.toLowerCase(Locale.ROOT)))
                        .thenComparing(Comparator.naturalOrder()));
    }

    /** {@code "; did you mean 'x'?"} for the closest candidate, or the empty string. */
    static String didYouMean(String word, Collection<String> candidates) {
        return closest(word, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    private static boolean close(String word, String candidate) {
        int limit = word.length() <= 3 ? 1 : 2;
        if (distance(word, candidate) <= limit) {
            return true;
        }
        String shorter = word.length() <= candidate.length() ? word : candidate;
        String longer = word.length() <= candidate.length() ? candidate : word;
        return shorter.length() >= 3 && longer.startsWith(shorter);
    }

    /** The optimal-string-alignment distance between {@code a} and {@code b}. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
