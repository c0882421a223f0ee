package org.gridrun.analysis;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What an H2 JDBC URL of a results store says: how it is reached, where the store's files are, and at which host and
 * port a server holds it.
 *
 * @param url      the URL as given
 * @param kind     how the store is reached
 * @param base     the store's absolute base path (H2 appends {@code .mv.db}) where the URL names one, else null: an
 *                 in-memory store, or a path relative to a server's own directory
 * @param hostPort {@code host[:port]} of a server URL, else null
 */
record StoreUrl(String url, Kind kind, Path base, String hostPort) {
    private static final String PREFIX = "jdbc:h2:";

    /** How a store is reached. */
    enum Kind {
        /** An embedded file database. */
        FILE,
        /** H2's TCP protocol, unencrypted. */
        TCP,
        /** H2's TCP protocol over TLS. */
        SSL,
        /** An in-memory database of this JVM. */
        MEMORY
    }

    /** Reads {@code url}; one that is not an H2 URL is a {@link StoreException}. */
    static StoreUrl parse(String url) {
        if (!url.startsWith(PREFIX)) {
            throw new StoreException("not an H2 JDBC URL: " + url + " (expected jdbc:h2:file:PATH, "
                    + "jdbc:h2:tcp://HOST:PORT/PATH or jdbc:h2:ssl://HOST:PORT/PATH)");
        }
        String name = url.substring(PREFIX.length());
        int settings = name.indexOf(';');
        name = settings < 0 ? name : name.substring(0, settings);
        if (name.startsWith("mem:")) {
            return new StoreUrl(url, Kind.MEMORY, null, null);
        }
        for (Kind server : new Kind[] {Kind.TCP, Kind.SSL}) {
            String scheme = server.name().toLowerCase(java.util.Locale.ROOT) + "://";
            if (name.startsWith(scheme)) {
                String rest = name.substring(scheme.length());
                int slash = rest.indexOf('/');
                String hostPort = slash < 0 ? rest : rest.substring(0, slash);
                Path base = slash < 0 ? null : path(rest.substring(slash + 1));
                return new StoreUrl(url, server, base != null && base.isAbsolute() ? base : null, hostPort);
            }
        }
        Path file = path(name.startsWith("file:") ? name.substring("file:".length()) : name);
        return new StoreUrl(url, Kind.FILE, file == null ? null : file.toAbsolutePath().normalize(), null);
    }

    /** Whether a server holds the store: TCP or TLS. */
    boolean remote() {
        return kind == Kind.TCP || kind == Kind.SSL;
    }

    /** The store's base path, when the URL names an absolute one. */
    Optional<Path> basePath() {
        return Optional.ofNullable(base);
    }

    /** The path a URL names ({@code ~} is the home directory), as given; null when it is no path at all. */
    private static Path path(String name) {
        String expanded = name.startsWith("~") ? System.getProperty("user.home") + name.substring(1) : name;
        try {
            return Path.of(expanded).normalize();
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
