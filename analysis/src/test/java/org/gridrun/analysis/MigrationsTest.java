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
            assertEquals(3, store.schemaVersion());
            assertEquals(3, StoreTables.scalar(store.url(), "SELECT MAX(version) FROM schema_version"));
            assertEquals(3, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM schema_version"));
            assertEquals(8, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM information_schema.tables "
                    + "WHERE table_name IN ('EXPERIMENTS', 'PARAMS', 'RUNS', 'METRICS', 'SUBMISSIONS', 'ATTEMPTS', "
                    + "'LATEST', 'SPOOL_MARKS')"));
            assertEquals(1, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM information_schema.columns "
                    + "WHERE table_name = 'RUNS' AND column_name = 'JOB'"));
        }
    }

    @Test
    void reopeningAppliesNothingTwice() throws Exception {
        ResultsStore.open(tmp.resolve("s")).close();
        try (ResultsStore store = ResultsStore.open(tmp.resolve("s"))) {
            assertEquals(3, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM schema_version"));
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
        assertTrue(e.getMessage().contains("has schema version 7 but this gridrun knows versions up to 3"),
                e.getMessage());
    }

    @Test
    void aVersion2StoreWithDataIsMigratedToAttemptsAndLatestValues() throws Exception {
        String url = "jdbc:h2:file:" + tmp.resolve("v2").toAbsolutePath();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE schema_version (version INT NOT NULL PRIMARY KEY, script VARCHAR(255) NOT NULL, "
                    + "applied TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL)");
            for (int version = 1; version <= 2; version++) {
                String script = Migrations.SCRIPTS.get(version - 1);
                for (String sql : Migrations.SqlScript.statements(resource(script))) {
                    s.execute(sql);
                }
                s.execute("INSERT INTO schema_version (version, script) VALUES (" + version + ", '" + script + "')");
            }
            s.execute("INSERT INTO experiments (id, grid, run, name, params, config) "
                    + "VALUES ('id-a', 'nuq', 'r1', 'a', '{}', '{\"lr\":0.1}')");
            s.execute("INSERT INTO runs (experiment_id, state, host, detail, job, updated) "
                    + "VALUES ('id-a', 'FAILED', 'n1', 'boom', 'slurm:9', TIMESTAMP WITH TIME ZONE "
                    + "'2026-01-01 00:00:00+00')");
            s.execute("INSERT INTO metrics (experiment_id, name, step, \"VALUE\", wall_ms) "
                    + "VALUES ('id-a', 'loss', 0, 3.0, 10), ('id-a', 'loss', 1, 2.0, 11), ('id-a', 'Vacc', 1, 0.5, 11)");
        }
        try (ResultsStore store = ResultsStore.openUrl(url)) {
            assertEquals(3, store.schemaVersion());
            Attempt attempt = store.attempts("id-a").get(0);
            assertEquals(List.of(1, RunState.FAILED, "n1", "slurm:9", "boom"),
                    List.of(attempt.number(), attempt.state(), attempt.host(), attempt.job(), attempt.failTrace()));
            assertEquals(Optional.of(2.0), store.last("id-a", "loss"));
            assertEquals(2, store.latest("id-a").size());
            assertEquals(3L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metrics WHERE attempt = 1"));
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
