package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.h2.api.ErrorCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code grid-run db serve} listens on, seen with {@code ss -ltnp} from outside its process: loopback only by
 * default; every interface with {@code --allow-others}, which also names the host in its URL and still admits only
 * clients that give the store's secret.
 */
class StoreListenersTest {
    private static final String SERVED = "results store served at ";

    @TempDir
    Path workdir;

    @BeforeEach
    void needsSs() {
        assumeTrue(Listeners.available(), "needs ss (iproute2) to see the listening sockets");
    }

    @Test
    void dbServeListensOnLoopbackOnlyAndCommandsOnThisHostGoThroughIt() throws Exception {
        try (ChildGridRun serve = ChildGridRun.start(workdir, "db", "serve", "--port", "0")) {
            String url = url(serve.awaitLine(SERVED));
            assertTrue(url.startsWith("jdbc:h2:tcp://localhost:"), url);
            List<String> listening = Listeners.of(serve.pid());
            assertEquals(1, listening.size(), "one listener, the TCP server: " + listening);
            assertTrue(Listeners.loopback(listening.get(0)), "ss -ltnp: " + listening);
            try (ResultsStore store = ResultsStore.open(workdir.resolve("runs/gridrun"))) {
                assertTrue(store.url().startsWith("jdbc:h2:tcp://localhost:"), store.url());
            }
        }
    }

    @Test
    void allowOthersListensOnEveryInterfaceNamesTheHostAndAdmitsOnlyTheSecret() throws Exception {
        try (ChildGridRun serve = ChildGridRun.start(workdir, "db", "serve", "--port", "0", "--allow-others",
                "--tls")) {
            String url = url(serve.awaitLine(SERVED));
            assertTrue(url.startsWith("jdbc:h2:ssl://"), url);
            assertFalse(url.startsWith("jdbc:h2:ssl://localhost:"), "a compute node cannot use localhost: " + url);
            List<String> listening = Listeners.of(serve.pid());
            assertEquals(1, listening.size(), "one listener, the TLS server; no automatic server: " + listening);
            assertFalse(Listeners.loopback(listening.get(0)), "asked for every interface: " + listening);
            String here = url.replaceFirst("ssl://[^/]+:", "ssl://localhost:");
            RunDir dir = StagedExperiment.stage(workdir, "live");
            Cli.Result job = Cli.run(workdir, "train", dir.path().toString(), "--db-url", here);
            assertEquals(0, job.exit(), job.err());
            assertFalse(job.err().contains("cannot write to the results store"), job.err());
            try (ResultsStore store = ResultsStore.openUrl(here)) {
                assertEquals(Optional.of(RunState.COMPLETED), store.state("id-live"), "written live, over TLS");
            }
            String secret = Files.readString(workdir.resolve("runs/.gridrun-secret")).strip();
            for (String guess : List.of("", "sa", secret.substring(1))) {
                assertEquals(ErrorCode.WRONG_USER_OR_PASSWORD, loginError(here, guess));
            }
            assertNotEquals(0, secret.length());
        }
    }

    private static int loginError(String url, String password) {
        try (var c = DriverManager.getConnection(url, "sa", password)) {
            return 0;
        } catch (SQLException e) {
            return e.getErrorCode();
        }
    }

    private static String url(String servedLine) {
        return servedLine.substring(SERVED.length()).split(" ")[0];
    }
}
