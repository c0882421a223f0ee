package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.api.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store's secret: created with it, owner-only, required to open it, given to stores from before secrets. */
class StoreSecretTest {
    @TempDir
    Path tmp;

    @Test
    void aNewStoreHasASecretAndFilesOnlyItsOwnerCanRead() throws Exception {
        Path base = tmp.resolve("runs/gridrun");
        ResultsStore.open(base).close();
        assertEquals("rwx------", mode(tmp.resolve("runs")));
        assertEquals("rw-------", mode(StoreSecret.file(base)));
        assertEquals("rw-------", mode(tmp.resolve("runs/gridrun.mv.db")));
        assertEquals(tmp.resolve("runs/.gridrun-secret"), StoreSecret.file(base));
        assertTrue(Files.readString(StoreSecret.file(base)).strip().matches("[0-9a-f]{64}"));
        assertEquals(ErrorCode.WRONG_USER_OR_PASSWORD, loginError(base, ""), "the empty password of old");
        assertEquals(4L, StoreTables.scalar(url(base), "SELECT COUNT(*) FROM schema_version"));
    }

    @Test
    void anExistingDirectoryKeepsThePermissionsItsOwnerGaveIt() throws Exception {
        Path shared = Files.createDirectories(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-x---"));
        ResultsStore.open(shared.resolve("gridrun")).close();
        assertEquals("rwxr-x---", mode(shared));
        assertEquals("rw-------", mode(StoreSecret.file(shared.resolve("gridrun"))), "the secret stays the owner's");
    }

    @Test
    void aWrongSecretIsRefusedWithAMessageThatSaysWhichSecret() throws Exception {
        Path base = tmp.resolve("runs/gridrun");
        ResultsStore.open(base).close();
        Files.writeString(StoreSecret.file(base), "0123456789abcdef\n");
        StoreAccessException e = assertThrows(StoreAccessException.class, () -> ResultsStore.open(base));
        assertEquals("results store " + base + " refused the login: the secret from " + StoreSecret.file(base)
                + " is not its secret; give the secret it was created with (a copied store needs its .NAME-secret "
                + "file too), or ask its owner", e.getMessage());
    }

    @Test
    void aStoreWhoseSecretFileIsGoneSaysWhereItLooked() throws Exception {
        Path base = tmp.resolve("runs/gridrun");
        ResultsStore.open(base).close();
        Files.delete(StoreSecret.file(base));
        StoreAccessException e = assertThrows(StoreAccessException.class, () -> ResultsStore.open(base));
        assertTrue(e.getMessage().contains("it has a secret, but no secret file is there ("
                + StoreSecret.file(base) + ") nor $GRIDRUN_DB_SECRET"), e.getMessage());
        assertFalse(Files.exists(StoreSecret.file(base)), "no new secret replaces the lost one");
    }

    @Test
    void aStoreFromBeforeSecretsIsGivenOneWhenFirstOpenedAndKeepsItsData() throws Exception {
        Path base = tmp.resolve("old/gridrun");
        Files.createDirectories(base.getParent());
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + base, "sa", "");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notes (id INT PRIMARY KEY)");
            s.execute("INSERT INTO notes VALUES (1), (2)");
        }
        try (ResultsStore store = ResultsStore.open(base)) {
            assertEquals(4, store.schemaVersion());
        }
        assertEquals("rw-------", mode(StoreSecret.file(base)));
        assertEquals("rw-------", mode(tmp.resolve("old/gridrun.mv.db")));
        assertEquals(ErrorCode.WRONG_USER_OR_PASSWORD, loginError(base, ""));
        assertEquals(2L, StoreTables.scalar(url(base), "SELECT COUNT(*) FROM notes"));
        ResultsStore.open(base).close();
    }

    @Test
    void aServedStoreAdmitsOnlyItsSecretAndServesNothingElse() throws Exception {
        Path base = tmp.resolve("runs/gridrun");
        try (StoreServer server = StoreServer.tcp(base, 0, false)) {
            assertTrue(server.url().startsWith("jdbc:h2:tcp://localhost:"), server.url());
            assertEquals(ErrorCode.WRONG_USER_OR_PASSWORD, loginError(server.url(), ""));
            String secret = Files.readString(StoreSecret.file(base)).strip();
            String other = "jdbc:h2:tcp://localhost:" + server.port() + "/" + tmp.resolve("other");
            assertEquals(ErrorCode.WRONG_USER_OR_PASSWORD, loginError(other, secret), "-key: this store only");
            try (ResultsStore local = ResultsStore.open(base)) {
                assertTrue(local.url().startsWith("jdbc:h2:tcp://localhost:" + server.port()),
                        "commands on this host go through the server: " + local.url());
            }
        }
        assertFalse(Files.exists(ServedStore.file(base)), "the server's note goes with it");
        try (ResultsStore direct = ResultsStore.open(base)) {
            assertTrue(direct.url().startsWith("jdbc:h2:file:"), direct.url());
        }
    }

    @Test
    void aStoreServedWithTlsIsReachedOnlyByClientsThatTrustItsOwnCertificate() throws Exception {
        Path other = tmp.resolve("other/gridrun");
        StoreServer.tcp(other, 0, false, true).close();
        Path base = tmp.resolve("runs/gridrun");
        try (StoreServer server = StoreServer.tcp(base, 0, false, true)) {
            assertTrue(server.url().startsWith("jdbc:h2:ssl://localhost:"), server.url());
            assertEquals("rw-------", mode(StoreTls.keystoreFile(base)));
            try (ResultsStore store = ResultsStore.openUrl(server.url())) {
                assertEquals(4, store.schemaVersion());
            }
            String posing = "jdbc:h2:ssl://localhost:" + server.port() + "/" + other;
            StoreException e = assertThrows(StoreException.class, () -> ResultsStore.openUrl(posing));
            assertTrue(e.getMessage().contains("does not hold the results store's certificate"), e.getMessage());
            String plain = server.url().replace("jdbc:h2:ssl:", "jdbc:h2:tcp:");
            assertThrows(StoreException.class, () -> ResultsStore.openUrl(plain));
        }
    }

    @Test
    void aStoreHeldByAnotherProcessIsAMessageNotAStackTrace() throws Exception {
        Path base = tmp.resolve("runs/gridrun");
        ResultsStore.open(base).close();
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HoldStore.class.getName(), base.toString())
                .redirectErrorStream(true).start();
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream()))) {
            assertEquals("open", out.readLine());
            StoreAccessException e = assertThrows(StoreAccessException.class, () -> ResultsStore.open(base));
            assertTrue(e.getMessage().startsWith("results store " + base + " is open in another process"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("run this command on that host"), e.getMessage());
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
    }

    private static String url(Path base) {
        return "jdbc:h2:file:" + base;
    }

    private static int loginError(Path base, String password) {
        return loginError(url(base), password);
    }

    private static int loginError(String url, String password) {
        try (Connection c = DriverManager.getConnection(url, "sa", password)) {
            return 0;
        } catch (SQLException e) {
            return e.getErrorCode();
        }
    }

    private static String mode(Path file) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }
}
