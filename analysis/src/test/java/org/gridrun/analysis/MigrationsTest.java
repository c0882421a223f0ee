package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationsTest {
    @TempDir
    Path tmp;

    @Test
    void aNewStoreIsAtTheLatestSchemaVersion() throws Exception {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("s"))) {
            assertEquals(4, store.schemaVersion());
            assertEquals(4, StoreTables.scalar(store.url(), "SELECT MAX(version) FROM schema_version"));
            assertEquals(4, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM schema_version"));
            assertEquals(10, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM information_schema.tables "
                    + "WHERE table_name IN ('EXPERIMENTS', 'PARAMS', 'RUNS', 'METRICS', 'SUBMISSIONS', 'ATTEMPTS', "
                    + "'LATEST', 'SPOOL_MARKS', 'METRIC_SERIES', 'METRIC_BLOCKS')"));
            assertEquals(1, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM information_schema.columns "
                    + "WHERE table_name = 'RUNS' AND column_name = 'JOB'"));
        }
    }

    @Test
    void reopeningAppliesNothingTwice() throws Exception {
        ResultsStore.open(tmp.resolve("s")).close();
        try (ResultsStore store = ResultsStore.open(tmp.resolve("s"))) {
            assertEquals(4, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM schema_version"));
        }
    }

    @Test
    void aStoreFromANewerVersionIsRejected() throws Exception {
        String url;
        try (ResultsStore store = ResultsStore.open(tmp.resolve("s"))) {
            url = store.url();
            StoreTables.execute(url, "INSERT INTO schema_version (version, script) VALUES (7, 'V7__future.sql')");
        }
        StoreException e = assertThrows(StoreException.class, () -> ResultsStore.openUrl(url));
        assertTrue(e.getMessage().contains("has schema version 7 but this gridrun knows versions up to 4"),
                e.getMessage());
    }

    @Test
    void aVersion2StoreWithDataIsMigratedToAttemptsAndLatestValues() throws Exception {
        String url = "jdbc:h2:file:" + tmp.resolve("v2").toAbsolutePath();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            createAtVersion(s, 2);
            s.execute("INSERT INTO experiments (id, grid, run, name, params, config) "
                    + "VALUES ('id-a', 'nuq', 'r1', 'a', '{}', '{\"lr\":0.1}')");
            s.execute("INSERT INTO runs (experiment_id, state, host, detail, job, updated) "
                    + "VALUES ('id-a', 'FAILED', 'n1', 'boom', 'slurm:9', TIMESTAMP WITH TIME ZONE "
                    + "'2026-01-01 00:00:00+00')");
            s.execute("INSERT INTO metrics (experiment_id, name, step, \"VALUE\", wall_ms) "
                    + "VALUES ('id-a', 'loss', 0, 3.0, 10), ('id-a', 'loss', 1, 2.0, 11), ('id-a', 'Vacc', 1, 0.5, 11)");
        }
        try (ResultsStore store = ResultsStore.openUrl(url)) {
            assertEquals(4, store.schemaVersion());
            Attempt attempt = store.attempts("id-a").get(0);
            assertEquals(List.of(1, RunState.FAILED, "n1", "slurm:9", "boom"),
                    List.of(attempt.number(), attempt.state(), attempt.host(), attempt.job(), attempt.failTrace()));
            assertEquals(Optional.of(2.0), store.last("id-a", "loss"));
            assertEquals(2, store.latest("id-a").size());
            assertEquals(3L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metrics WHERE attempt = 1"));
        }
    }

    @Test
    void aVersion3StoreMovesItsMetricRowsIntoBlocksAndKeepsThemReadable() throws Exception {
        String url = "jdbc:h2:file:" + tmp.resolve("v3").toAbsolutePath();
        int steps = 2_500;
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            createAtVersion(s, 3);
            s.execute("INSERT INTO experiments (id, grid, run, name, params, config) "
                    + "VALUES ('id-a', 'nuq', 'r1', 'a', '{}', '{\"lr\":0.1}')");
            // steps 0..2499 of loss, the first 1500 by attempt 1 and the rest by attempt 2; one Vacc record.
            s.execute("INSERT INTO metrics (experiment_id, name, step, \"VALUE\", wall_ms, attempt) "
                    + "SELECT 'id-a', 'loss', X, 1.0 / (X + 1), 1000 + X, CASE WHEN X < 1500 THEN 1 ELSE 2 END "
                    + "FROM SYSTEM_RANGE(0, " + (steps - 1) + ")");
            s.execute("INSERT INTO metrics (experiment_id, name, step, \"VALUE\", wall_ms, attempt) "
                    + "VALUES ('id-a', 'Vacc', 7, 0.5, 11, 1)");
        }
        try (ResultsStore store = ResultsStore.openUrl(url)) {
            assertEquals(4, store.schemaVersion());
            var loss = store.series("id-a", "loss");
            assertEquals(steps, loss.size());
            for (int i = 0; i < steps; i++) {
                assertEquals(i, loss.get(i).step());
                assertEquals(1.0 / (i + 1), loss.get(i).value());
                assertEquals(1000 + i, loss.get(i).wallMillis());
            }
            assertEquals(List.of(new org.gridrun.engine.run.MetricRecord("Vacc", 7, 0.5, 11)),
                    store.series("id-a", "Vacc"));
            assertEquals(2L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metric_series"));
            // loss: steps 0-1023, 1024-1499 (attempt 1), 1500-2047, 2048-2499 (attempt 2); Vacc: one block.
            assertEquals(5L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metric_blocks"));
            assertEquals(1000L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metrics WHERE attempt = 2"));
            assertEquals(1501L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metrics WHERE attempt = 1"));
            assertEquals(2_499L, StoreTables.scalar(url, "SELECT MAX(step) FROM metrics WHERE name = 'loss'"));
        }
    }

    /** Creates the schema of {@code version} with this code's scripts, as a gridrun of that version left it. */
    private static void createAtVersion(Statement s, int version) throws Exception {
        s.execute("CREATE TABLE schema_version (version INT NOT NULL PRIMARY KEY, script VARCHAR(255) NOT NULL, "
                + "applied TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL)");
        for (int v = 1; v <= version; v++) {
            String script = Migrations.SCRIPTS.get(v - 1);
            for (String sql : Migrations.SqlScript.statements(resource(script))) {
                s.execute(sql);
            }
            s.execute("INSERT INTO schema_version (version, script) VALUES (" + v + ", '" + script + "')");
        }
    }

    private static String resource(String script) throws Exception {
        try (var in = Migrations.class.getResourceAsStream("/org/gridrun/analysis/migrations/" + script)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void scriptsSplitOnSemicolonsOutsideQuotesAndComments() {
        String script = "-- a comment; with a semicolon\nCREATE TABLE t (x VARCHAR DEFAULT 'a;b');\n"
                + "INSERT INTO t VALUES ('c');  \n\n";
        assertEquals(List.of("CREATE TABLE t (x VARCHAR DEFAULT 'a;b')", "INSERT INTO t VALUES ('c')"),
                Migrations.SqlScript.statements(script));
    }

    @Test
    void everyListedScriptIsNumberedInOrder() {
        for (int i = 0; i < Migrations.SCRIPTS.size(); i++) {
            assertTrue(Migrations.SCRIPTS.get(i).startsWith("V" + (i + 1) + "__"), Migrations.SCRIPTS.get(i));
        }
    }
}
