package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.FileWarnings;
import org.gridrun.engine.run.RunDir;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store that H2 opens at an older state (here: an older copy of its file put back) says which rows it lost. */
class RowLedgerTest {
    private final FileWarnings.Capture capture = FileWarnings.capture();
    private final List<String> warned = capture.warnings();
    private final ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
    private Path base;

    @TempDir
    Path tmp;

    @AfterEach
    void releaseWarnings() {
        capture.close();
    }

    /** A run directory with {@code records} losses, ingested into the store at {@link #base}. */
    private RunDir ingested(long records) {
        RunDir dir = Fixtures.runDir(tmp, e);
        Fixtures.appendMetric(dir, "loss", 0, records, 1);
        base = tmp.resolve("db/gridrun");
        try (ResultsStore store = ResultsStore.open(base)) {
            store.ingest(dir);
        }
        return dir;
    }

    @Test
    void aStoreBackAtAnOlderStateNamesTheExperimentAndItsRecordsUntilTheSpoolIsIngestedAgain() throws IOException {
        RunDir dir = ingested(10);
        Path data = tmp.resolve("db/gridrun.mv.db");
        Path older = Files.copy(data, tmp.resolve("older.mv.db"));
        Fixtures.appendMetric(dir, "loss", 10, 30, 1);
        try (ResultsStore store = ResultsStore.open(base)) {
            store.ingest(dir);
        }
        assertEquals(List.of(), warned);

        Files.copy(older, data, StandardCopyOption.REPLACE_EXISTING);
        try (ResultsStore store = ResultsStore.open(base)) {
            assertEquals(10, store.series(e.id(), "loss").size());
            assertEquals(1, warned.size(), warned.toString());
            assertTrue(warned.get(0).startsWith("warning: " + data + ": rows lost: experiment " + e.id() + " holds 10 "
                    + "metric records where 30 were stored (as .gridrun-rows beside it records); H2 opened the store "
                    + "at an older state"), warned.get(0));
            store.ingest(dir);
            assertEquals(30, store.series(e.id(), "loss").size());
        }
        warned.clear();
        try (ResultsStore store = ResultsStore.open(base)) {
            assertEquals(List.of(), warned, "the spool ingested again, nothing is missing");
        }
    }

    @Test
    void aStoreFromBeforeTheWitnessGetsOneFromItsOwnCountsOnItsFirstOpen() throws IOException {
        RunDir dir = ingested(12);
        Path witness = tmp.resolve("db/.gridrun-rows");
        Files.delete(witness);
        try (ResultsStore store = ResultsStore.open(base)) {
            assertEquals(12, store.series(e.id(), "loss").size());
        }
        List<String> lines = Files.readAllLines(witness);
        assertEquals(e.id() + "\t" + Files.size(dir.metricsFile()) + "\t12", lines.get(lines.size() - 1));
        assertEquals(List.of(), warned);
    }

    @Test
    void aWitnessGrownPastALinePerExperimentIsRewrittenWithTheLastOfEach() throws IOException {
        RunDir dir = ingested(12);
        Path witness = tmp.resolve("db/.gridrun-rows");
        String last = e.id() + "\t" + Files.size(dir.metricsFile()) + "\t12";
        String older = e.id() + "\t1\t1\n";
        Files.writeString(witness, older.repeat(RowLedger.COMPACT_SLACK + 5) + last + "\n");
        try (ResultsStore store = ResultsStore.open(base)) {
            assertEquals(12, store.series(e.id(), "loss").size());
        }
        List<String> lines = Files.readAllLines(witness);
        assertEquals(List.of(last), lines.subList(1, lines.size()));
        assertEquals(List.of(), warned);
    }
}
