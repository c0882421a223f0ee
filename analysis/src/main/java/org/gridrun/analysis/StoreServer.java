package org.gridrun.analysis;

import java.nio.file.Path;
import java.sql.SQLException;
import org.gridrun.engine.run.StatusFile;
import org.h2.tools.Server;

/**
 * An H2 server in front of a results store: the TCP server through which jobs on other hosts, or many at once,
 * write live, or the web console for ad-hoc SQL.
 *
 * <p>{@link #tcp} opens the store itself first (applying migrations) and keeps it open with H2's automatic mixed
 * mode, so grid-run commands on this host still open the file directly while the server runs. Both servers listen
 * on localhost only unless {@code allowOthers} is set. Close the server to stop it.
 */
public final class StoreServer implements AutoCloseable {
    private final Server server;
    private final ResultsStore store;
    private final String url;

    private StoreServer(Server server, ResultsStore store, String url) {
        this.server = server;
        this.store = store;
        this.url = url;
    }

    /**
     * Starts a TCP server for the store at {@code databaseFile} (as {@link ResultsStore#open} names it) on
     * {@code port}, 0 for any free one.
     */
    public static StoreServer tcp(Path databaseFile, int port, boolean allowOthers) {
        ResultsStore store = ResultsStore.open(databaseFile);
        try {
            Server server = Server.createTcpServer(args("-tcpPort", port, allowOthers ? "-tcpAllowOthers" : null))
                    .start();
            String host = allowOthers ? StatusFile.hostName() : "localhost";
            return new StoreServer(server, store, "jdbc:h2:tcp://" + host + ":" + server.getPort() + "/"
                    + ResultsStore.basePath(databaseFile));
        } catch (SQLException | RuntimeException e) {
            store.close();
            throw new StoreException("cannot start an H2 TCP server for results store " + databaseFile + " on port "
                    + port + ": " + e.getMessage(), e);
        }
    }

    /** Starts H2's web console on {@code port}, 0 for any free one; log in with {@link #url()} of a store. */
    public static StoreServer console(int port, boolean allowOthers) {
        try {
            Server server = Server.createWebServer(args("-webPort", port, allowOthers ? "-webAllowOthers" : null))
                    .start();
            return new StoreServer(server, null, server.getURL());
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
        server.stop();
        if (store != null) {
            store.close();
        }
    }

    private static String[] args(String portFlag, int port, String allowOthers) {
        return allowOthers == null ? new String[] {portFlag, String.valueOf(port)}
                : new String[] {portFlag, String.valueOf(port), allowOthers};
    }
}
