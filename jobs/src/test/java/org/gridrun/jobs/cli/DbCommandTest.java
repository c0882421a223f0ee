package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoreServer;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Jobs writing live to a served store, or keeping their spool when it is out of reach; the ingest benchmark. */
class DbCommandTest {
    @TempDir
    Path tmp;

    private RunDir stage(String name) {
        return StagedExperiment.stage(tmp, name);
    }

    @Test
    void aJobGivenTheServedUrlWritesItsStateAndEveryRecordLive() {
        RunDir dir = stage("live");
        try (StoreServer server = StoreServer.tcp(tmp.resolve("db/gridrun"), 0, false)) {
            Cli.Result result = Cli.run(tmp, "train", dir.path().toString(), "--db-url", server.url());
            assertEquals(0, result.exit(), result.err());
            try (ResultsStore store = ResultsStore.openUrl(server.url())) {
                assertEquals(Optional.of(RunState.COMPLETED), store.state("id-live"));
                List<MetricRecord> spool = MetricSpool.read(dir.metricsFile());
                assertTrue(spool.size() > 0);
                int stored = 0;
                for (String metric : spool.stream().map(MetricRecord::name).distinct().toList()) {
                    stored += store.series("id-live", metric).size();
                }
                assertEquals(spool.size(), stored);
                assertEquals(0, store.ingest(dir), "a later ingest finds nothing new");
                assertEquals(1, store.attempts("id-live").size());
            }
        }
    }

    @Test
    void aJobThatCannotReachTheStoreKeepsItsSpoolForALaterIngest() {
        RunDir dir = stage("offline");
        Cli.Result result = Cli.run(tmp, "train", dir.path().toString(), "--db-url",
                "jdbc:h2:tcp://localhost:1/nowhere");
        assertEquals(0, result.exit(), result.err());
        int records = MetricSpool.read(dir.metricsFile()).size();
        assertTrue(records > 0);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/later"))) {
            assertEquals(records, store.ingest(dir));
            assertEquals(0, store.ingest(dir));
            assertEquals(Optional.of(RunState.COMPLETED), store.state("id-offline"));
        }
    }

    @Test
    void theIngestBenchmarkPrintsARateAndAddsNothingTheSecondTime() {
        StringWriter out = new StringWriter();
        CommandLine cli = GridRun.commandLine();
        cli.setOut(new PrintWriter(out, true));
        assertEquals(0, cli.execute("bench", "ingest", "--rows", "20000"));
        assertTrue(out.toString().contains("rows/s  (20000 records)"), out.toString());
        assertTrue(out.toString().contains("(0 new records)"), out.toString());
    }
}
