package org.gridrun.analysis;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.h2.tools.Server;

/**
 * An H2 server in front of a results store: the TCP server through which jobs on other hosts, or many at once,
 * write live, or the web console for ad-hoc SQL.
 *
 * <p>{@link #tcp} opens the store itself first (applying migrations) and holds it alone: the server is the one way
 * in while it runs, and other gridrun commands on this host find it through {@link ServedStore}'s note. It serves
 * that store and no other database, to clients that give the store's secret. Both servers listen on loopback only
 * unless {@code allowOthers} is set; {@code tls} encrypts the TCP server's connections with the store's own key
 * ({@link StoreTls}). Close the server to stop it.
 */
public final class StoreServer implements AutoCloseable {
    private final Server server;
    private final ResultsStore store;
    private final Path base;
    private final String url;

    private StoreServer(Server server, ResultsStore store, Path base, String url) {
        this.server = server;
        this.store = store;
        this.base = base;
        this.url = url;
    }

    /** {@link #tcp(Path, int, boolean, boolean)} without TLS. */
    public static StoreServer tcp(Path databaseFile, int port, boolean allowOthers) {
        return tcp(databaseFile, port, allowOthers, false);
    }

    /**
     * Starts a TCP server for the store at {@code databaseFile} (as {@link ResultsStore#open} names it) on
     * {@code port}, 0 for any free one; {@code allowOthers}: on every interface, for other hosts (this must be the
     * first store this JVM opens); {@code tls}: over TLS ({@code jdbc:h2:ssl://}).
     */
    public static StoreServer tcp(Path databaseFile, int port, boolean allowOthers, boolean tls) {
        if (allowOthers) {
            StoreNetwork.allInterfaces();
        }
        Path base = ResultsStore.basePath(databaseFile);
        ServedStore.localUrl(base).ifPresent(held -> {
            throw new StoreAccessException("results store " + base + " is served already, at " + held
                    + "; stop that grid-run db serve first");
        });
        ResultsStore store = ResultsStore.openFile(base, false);
        try {
            if (tls) {
                StoreTls.serve(base, StoreSecret.find(base).orElseThrow());
            }
            Server server = Server.createTcpServer(args(base, port, allowOthers, tls)).start();
            String scheme = tls ? "jdbc:h2:ssl://" : "jdbc:h2:tcp://";
            String host = allowOthers ? StoreNetwork.hostForOthers() : "localhost";
            ServedStore.announce(base, scheme + "localhost:" + server.getPort() + "/" + base);
            return new StoreServer(server, store, base, scheme + host + ":" + server.getPort() + "/" + base);
        } catch (SQLException | RuntimeException e) {
            store.close();
            throw new StoreException("cannot start an H2 TCP server for results store " + databaseFile + " on port "
                    + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts H2's web console on {@code port}, 0 for any free one, on loopback; log in with the store's JDBC URL,
     * user {@code sa} and its secret.
     */
    public static StoreServer console(int port) {
        try {
            Server server = Server.createWebServer("-webPort", String.valueOf(port)).start();
            return new StoreServer(server, null, null, server.getURL());
        } catch (SQLException | RuntimeException e) {
            throw new StoreException("cannot start H2's web console on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** What to connect to: the JDBC URL of the store behind a TCP server, or the console's web address. */
    public String url() {
        return url;
    }

    /** The port the server listens on. */
    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        if (base != null) {
            ServedStore.withdraw(base);
        }
        server.stop();
        if (store != null) {
            store.close();
        }
    }

    /**
     * The TCP server's arguments: {@code -key} maps the store's path to itself, so that the server opens no other
     * database; a random management password, so that no client can shut it down.
     */
    private static String[] args(Path base, int port, boolean allowOthers, boolean tls) {
        byte[] management = new byte[16];
        new SecureRandom().nextBytes(management);
        List<String> args = new ArrayList<>(List.of("-tcpPort", String.valueOf(port), "-tcpPassword",
                HexFormat.of().formatHex(management), "-key", base.toString(), base.toString()));
        if (allowOthers) {
            args.add("-tcpAllowOthers");
        }
        if (tls) {
            args.add("-tcpSSL");
        }
        return args.toArray(String[]::new);
    }
}
