package org.gridrun.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusFileTest {
    @TempDir
    Path dir;

    private FileWarnings.Capture capture;
    private List<String> warned;

    @BeforeEach
    void captureWarnings() {
        capture = FileWarnings.capture();
        warned = capture.warnings();
    }

    @AfterEach
    void releaseWarnings() {
        capture.close();
    }

    @Test
    void aCompletedLineDamagedInItsDetailIsPassedOverWithAWarningNamingFileAndLine() throws IOException {
        Path file = dir.resolve("status");
        StatusFile status = new StatusFile(file);
        status.append(RunState.RUNNING, "local:1", "pid 2");
        status.append(RunState.COMPLETED, "Vacc 0.7000 after 30 steps");
        Files.writeString(file, Files.readString(file).replace("Vacc 0.7000", "Vacc 0.9000"));

        assertEquals(StatusFile.HEADER, Files.readAllLines(file).get(0));
        assertEquals(RunState.RUNNING, status.state(), "never COMPLETED from a damaged line");
        assertEquals(1, warned.size(), warned.toString());
        assertTrue(warned.get(0).startsWith("warning: " + file + ":3: damaged status line 'COMPLETED"), warned.get(0));
        status.history();
        assertEquals(1, warned.size(), "once per process");
    }

    @Test
    void linesFromBeforeChecksumsStillReadButNotAfterACheckedLine() throws IOException {
        Path file = dir.resolve("status");
        Files.writeString(file, "QUEUED\t2026-01-01T00:00:00Z\thost\tlocal:1\tqueued\n"
                + "RUNNING\t2026-01-01T00:00:01Z\thost\tpid 3\n");
        StatusFile status = new StatusFile(file);
        assertEquals(List.of(RunState.QUEUED, RunState.RUNNING), status.history().stream().map(StatusEntry::state)
                .toList());
        status.append(RunState.FAILED, "exit 1");
        Files.writeString(file, "COMPLETED\t2026-01-01T00:00:09Z\thost\t\tdone\n",
                java.nio.file.StandardOpenOption.APPEND);

        assertEquals(RunState.FAILED, status.state());
        assertEquals(List.of("warning: " + file + ":4: damaged status line 'COMPLETED\\x092026-01-01T00:00:09Z\\x09"
                + "host\\x09\\x09done' passed over (expected STATE, time, host, job, detail and their checksum, tab "
                + "separated); the state is read from the other lines; restore the file from a copy, or delete the "
                + "line"), warned);
    }

    @Test
    void aLineThatLostItsChecksumInAFileStartedWithTheHeaderIsDamaged() throws IOException {
        Path file = dir.resolve("status");
        StatusFile status = new StatusFile(file);
        status.append(RunState.FAILED, "exit 1");
        String line = Files.readAllLines(file).get(1);
        Files.writeString(file, StatusFile.HEADER + "\n" + line.substring(0, line.lastIndexOf('\t')) + "\n");
        assertEquals(null, status.state());
        assertEquals(1, warned.size());
    }

    @Test
    void aTornLastLineIsPassedOverSilently() throws IOException {
        Path file = dir.resolve("status");
        StatusFile status = new StatusFile(file);
        status.append(RunState.RUNNING, "pid 2");
        Files.writeString(file, "COMPLETED\t2026-01-01T00:00:09Z\thost\t\tdo", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(RunState.RUNNING, status.state());
        assertEquals(List.of(), warned);
    }
}
