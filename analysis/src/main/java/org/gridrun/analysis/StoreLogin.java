package org.gridrun.analysis;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import org.h2.api.ErrorCode;

/**
 * Logs in to a results store with its secret, and turns what H2 says when that fails into what to do about it.
 *
 * <p>The store's user is {@code sa}, its password the {@link StoreSecret}. A new file store is created with a fresh
 * secret. A store from before secrets (password empty) is opened once more with the empty password and given the
 * secret then, so existing stores keep working: that is the migration. An in-memory store belongs to this JVM and
 * has no secret.
 */
final class StoreLogin {
    static final String USER = "sa";

    private StoreLogin() {
    }

    /** Connects to the store at {@code url}, creating a file store and its secret when there is none yet. */
    static Connection connect(String url) {
        StoreUrl store = StoreUrl.parse(url);
        if (store.kind() == StoreUrl.Kind.MEMORY) {
            return login(store, "");
        }
        Optional<StoreSecret> secret = StoreSecret.find(store.base());
        if (store.remote()) {
            StoreSecret known = secret.orElseThrow(() -> new StoreAccessException("no secret for the results store "
                    + "at " + url + ": " + (store.base() == null ? "" : StoreSecret.file(store.base())
                    + " is not there on this host; ") + "set $" + StoreSecret.ENV + " to the contents of the store's "
                    + "secret file"));
            if (store.kind() == StoreUrl.Kind.SSL) {
                StoreTls.trust(store, known);
            }
            return loginWith(store, known);
        }
        if (secret.isPresent()) {
            return loginOrMigrate(store, secret.get());
        }
        if (!Files.exists(dataFile(store.base()))) {
            StoreSecret fresh = StoreSecret.create(store.base());
            Connection connection = loginWith(store, fresh);
            OwnerOnly.restrict(dataFile(store.base()));
            return connection;
        }
        return migrate(store, () -> StoreSecret.create(store.base()));
    }

    /** The data file of the store at {@code base}. */
    static Path dataFile(Path base) {
        return base.resolveSibling(base.getFileName() + ".mv.db");
    }

    private static Connection loginOrMigrate(StoreUrl store, StoreSecret secret) {
        try {
            return login(store, secret.value());
        } catch (WrongPassword wrong) {
            return migrate(store, () -> secret);
        }
    }

    /**
     * Opens a store from before secrets with the empty password, gives it the secret {@code secret} makes, and makes
     * its data file owner-only, as a new store's is.
     */
    private static Connection migrate(StoreUrl store, java.util.function.Supplier<StoreSecret> secret) {
        Connection connection;
        try {
            connection = login(store, "");
        } catch (WrongPassword wrong) {
            throw wrongSecret(store, StoreSecret.find(store.base()).orElse(null), wrong);
        }
        StoreSecret given = secret.get();
        try (PreparedStatement set = connection.prepareStatement("ALTER USER " + USER + " SET PASSWORD ?")) {
            set.setString(1, given.value());
            set.execute();
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new StoreException("results store " + store.url() + ": cannot set its secret: " + e.getMessage(), e);
        }
        OwnerOnly.restrict(dataFile(store.base()));
        return connection;
    }

    private static Connection loginWith(StoreUrl store, StoreSecret secret) {
        try {
            return login(store, secret.value());
        } catch (WrongPassword wrong) {
            throw wrongSecret(store, secret, wrong);
        }
    }

    private static Connection login(StoreUrl store, String password) {
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        properties.setProperty("password", password);
        try {
            return DriverManager.getConnection(store.url(), properties);
        } catch (SQLException e) {
            throw translate(store, e);
        }
    }

    private static RuntimeException translate(StoreUrl store, SQLException e) {
        return switch (e.getErrorCode()) {
            case ErrorCode.WRONG_USER_OR_PASSWORD -> new WrongPassword(e);
            case ErrorCode.DATABASE_ALREADY_OPEN_1 -> new StoreAccessException("results store " + store.base()
                    + " is open in another process" + holder(store) + (store.url().contains("AUTO_SERVER=TRUE")
                    ? ", whose automatic server this process cannot reach (it listens on that host's loopback "
                    + "interface only): run this command on that host, or serve the store to other hosts with "
                    + "grid-run db serve --allow-others"
                    : "; grid-run db serve needs the store to itself: stop that process, or start db serve first "
                    + "(commands started later go through it)"), e);
            case ErrorCode.REMOTE_CONNECTION_NOT_ALLOWED -> new StoreAccessException("the server at "
                    + store.hostPort() + " accepts connections from its own host only (grid-run db serve without "
                    + "--allow-others)", e);
            default -> StoreDamage.onOpen(store, e).<RuntimeException>map(damaged -> damaged).orElseGet(() ->
                    new StoreException("cannot open results store " + store.url() + ": " + e.getMessage(), e));
        };
    }

    private static StoreAccessException wrongSecret(StoreUrl store, StoreSecret secret, WrongPassword wrong) {
        String what = secret == null ? "it has a secret, but no secret file is there ("
                + StoreSecret.file(store.base()) + ") nor $" + StoreSecret.ENV
                : "the secret from " + secret.source() + " is not its secret";
        return new StoreAccessException("results store " + (store.base() == null ? store.url() : store.base())
                + " refused the login: " + what + "; give the secret it was created with (a copied store needs its "
                + ".NAME-secret file too), or ask its owner", wrong.getCause());
    }

    /** Who holds a store's lock, as its lock file says: " (on host H)", or nothing. */
    private static String holder(StoreUrl store) {
        if (store.base() == null) {
            return "";
        }
        Path lock = store.base().resolveSibling(store.base().getFileName() + ".lock.db");
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(lock)) {
            properties.load(in);
        } catch (IOException | IllegalArgumentException unreadable) {
            return "";
        }
        String host = properties.getProperty("hostName");
        return host == null ? "" : " (on host " + host + ")";
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // the failure being reported matters more
        }
    }

    /** H2 refused the user name or password. */
    private static final class WrongPassword extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WrongPassword(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
