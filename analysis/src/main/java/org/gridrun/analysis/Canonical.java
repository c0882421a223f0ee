package org.gridrun.analysis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The canonical form of a resolved config, the JSON object with its keys sorted, and its SHA-256.
 */
final class Canonical {
    private Canonical() {
    }

    /** The config as JSON, keys in sorted order, so that equal configs give equal text. */
    static String json(Map<String, Object> config) {
        return FlatJson.write(new TreeMap<>(config));
    }

    /** The SHA-256 of {@code text}'s UTF-8 bytes, in lower-case hex. */
    static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
