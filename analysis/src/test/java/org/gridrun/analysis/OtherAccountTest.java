package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.h2.tools.Shell;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Another account on the same host, played by {@code nobody} through {@code setpriv} (so only where the tests run as
 * root): it can read neither the store nor its secret, and the store's server turns it away without the secret.
 *
 * <p>The store lies in a directory everyone may enter, so that only what gridrun created keeps them out.
 */
class OtherAccountTest {
    private static final String NOBODY = "65534";
    private Path root;
    private Path h2Jar;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to act as another account");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
        root = Files.createTempDirectory("gridrun-account");
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path lib = Files.createDirectories(root.resolve("lib"));
        h2Jar = Files.copy(Path.of(Shell.class.getProtectionDomain().getCodeSource().getLocation().getPath()),
                lib.resolve("h2.jar"));
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(h2Jar, PosixFilePermissions.fromString("rw-r--r--"));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (root != null) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Test
    void anotherAccountReadsNeitherTheStoreNorItsSecret() throws Exception {
        Path base = root.resolve("runs/gridrun");
        ResultsStore.open(base).close();
        Result cat = asNobody("cat", StoreSecret.file(base).toString());
        assertNotEquals(0, cat.exit);
        assertTrue(cat.output.contains("Permission denied"), cat.output);
        Result open = asNobody(h2Shell("jdbc:h2:file:" + base, ""));
        assertNotEquals(0, open.exit);
        assertTrue(open.output.contains("Permission denied") || open.output.contains("AccessDenied"), open.output);
    }

    @Test
    void anotherAccountIsTurnedAwayByTheServerWithoutTheSecret() throws Exception {
        Path base = root.resolve("runs/gridrun");
        try (StoreServer server = StoreServer.tcp(base, 0, false)) {
            for (String guess : List.of("", "sa", "gridrun")) {
                Result login = asNobody(h2Shell(server.url(), guess));
                assertNotEquals(0, login.exit);
                assertTrue(login.output.contains("Wrong user name or password"), login.output);
            }
        }
    }

    private List<String> h2Shell(String url, String password) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", h2Jar.toString(),
                Shell.class.getName(), "-url", url, "-user", "sa", "-password", password,
                "-sql", "SELECT COUNT(*) FROM experiments");
    }

    private static Result asNobody(String... command) throws Exception {
        return asNobody(List.of(command));
    }

    private static Result asNobody(List<String> command) throws Exception {
        List<String> all = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY,
                "--clear-groups", "--"));
        all.addAll(command);
        Process p = new ProcessBuilder(all).redirectErrorStream(true).directory(Path.of("/").toFile()).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), output);
    }

    private record Result(int exit, String output) {
    }
}
