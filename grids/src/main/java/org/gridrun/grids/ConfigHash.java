package org.gridrun.grids;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The experiment identity: a hash of the canonical form of a config.
 *
 * <p>The canonical form is the line {@code gridrun-config-v1}, then one line per param in key order (Java's
 * {@code String} order): {@code key}, a tab, a type letter ({@code n} number, {@code b} boolean, {@code s} string),
 * a tab and the value, with backslash, tab and newline escaped. A number is written as
 * {@code BigDecimal.valueOf(x).stripTrailingZeros().toString()}, so {@code 1e-4}, {@code 0.0001} and
 * {@code 0.00010} all read {@code 0.0001}, {@code 1e20} reads {@code 1E+20}, and the {@code Double} 4.0 and the
 * {@code Long} 4 both read {@code 4}; infinities and NaN keep Java's names. The string {@code "4"} differs from the
 * number 4.
 *
 * <p>The id is the first 16 hex digits (64 bits) of the SHA-256 of that form in UTF-8. Changing the form means
 * changing the version tag, so that old ids are not silently reused for different configs.
 */
final class ConfigHash {
    static final String VERSION = "gridrun-config-v1";
    private static final int ID_HEX_DIGITS = 16;

    private ConfigHash() {
    }

    private static final ThreadLocal<Hasher> HASHERS = ThreadLocal.withInitial(Hasher::new);

    /** The id of {@code params}: 16 lower-case hex digits. */
    static String id(Map<String, Object> params) {
        return hex(sha256().digest(canonical(params).getBytes(StandardCharsets.UTF_8)));
    }

    /** The canonical form of {@code params} that {@link #id} hashes. */
    static String canonical(Map<String, Object> params) {
        StringBuilder out = new StringBuilder(VERSION).append('\n');
        new TreeMap<>(params).forEach((key, value) -> out.append(line(key, value)));
        return out.toString();
    }

    /** The id of the params that {@code settings}, whose keys are distinct, set; what {@link #id(Map)} gives. */
    static String id(Setting[] settings) {
        return HASHERS.get().id(settings);
    }

    /** One param's line of the canonical form, newline included. */
    static String line(String key, Object value) {
        return escape(key) + '\t' + typed(value) + '\n';
    }

    /** Ids from settings' cached lines, with one reusable digest and buffer; one per thread. */
    private static final class Hasher {
        private static final byte[] HEADER = (VERSION + "\n").getBytes(StandardCharsets.UTF_8);
        private final MessageDigest sha = sha256();
        private Setting[] sorted = new Setting[0];
        private byte[] form = HEADER.clone();

        /** The id of {@code settings}, whose keys are distinct. */
        String id(Setting[] settings) {
            int n = settings.length;
            if (sorted.length < n) {
                sorted = new Setting[n];
            }
            int size = HEADER.length;
            for (int i = 0; i < n; i++) {
                Setting s = settings[i];
                size += s.canonical().length;
                int j = i;
                for (; j > 0 && sorted[j - 1].key().compareTo(s.key()) > 0; j--) {
                    sorted[j] = sorted[j - 1];
                }
                sorted[j] = s;
            }
            if (form.length < size) {
                form = Arrays.copyOf(form, Math.max(size, 2 * form.length));
            }
            int at = HEADER.length;
            for (int i = 0; i < n; i++) {
                byte[] line = sorted[i].canonical();
                System.arraycopy(line, 0, form, at, line.length);
                at += line.length;
            }
            sha.update(form, 0, size);
            return hex(sha.digest());
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest, 0, ID_HEX_DIGITS / 2);
    }

    private static String typed(Object value) {
        if (value instanceof Number number) {
            return "n\t" + number(number);
        }
        if (value instanceof Boolean bool) {
            return "b\t" + bool;
        }
        if (value instanceof String text) {
            return "s\t" + escape(text);
        }
        throw new IllegalArgumentException("a config value must be a number, boolean or string, found "
                + (value == null ? "null" : value.getClass().getSimpleName()));
    }

    private static String number(Number number) {
        if (number instanceof Double || number instanceof Float) {
            double d = number.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return Double.toString(d);
            }
            return BigDecimal.valueOf(d).stripTrailingZeros().toString();
        }
        return BigDecimal.valueOf(number.longValue()).stripTrailingZeros().toString();
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
    }
}
