package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationsTest {
    @TempDir
    Path tmp;

    @Test
    void aNewStoreIsAtTheLatestSchemaVersion() throws Exception {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("s"))) {
            assertEquals(2, store.schemaVersion());
            assertEquals(2, StoreTables.scalar(store.url(), "SELECT MAX(version) FROM schema_version"));
            assertEquals(2, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM schema_version"));
            assertEquals(5, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM information_schema.tables "
                    + "WHERE table_name IN ('EXPERIMENTS', 'PARAMS', 'RUNS', 'METRICS', 'SUBMISSIONS')"));
            assertEquals(1, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM information_schema.columns "
                    + "WHERE table_name = 'RUNS' AND column_name = 'JOB'"));
        }
    }

    @Test
    void reopeningAppliesNothingTwice() throws Exception {
        ResultsStore.open(tmp.resolve("s")).close();
        try (ResultsStore store = ResultsStore.open(tmp.resolve("s"))) {
            assertEquals(2, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM schema_version"));
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
        assertTrue(e.getMessage().contains("has schema version 7 but this gridrun knows versions up to 2"),
                e.getMessage());
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
