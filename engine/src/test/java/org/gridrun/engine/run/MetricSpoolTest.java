package org.gridrun.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricSpoolTest {
    @TempDir
    Path dir;

    @Test
    void truncatingKeepsTheStepsUpToTheCheckpointAndDropsTheLostTail() throws IOException {
        Path file = dir.resolve("metrics.csv");
        try (MetricSpool.Writer out = MetricSpool.append(file)) {
            for (long step = 1; step <= 5; step++) {
                out.write(new MetricRecord("loss", step, 1.0 / step, 1000 + step));
            }
            out.write(new MetricRecord("Vacc", 3, 0.8125, 2000));
        }
        Files.writeString(file, "loss,6,0.1", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);

        assertEquals(3, MetricSpool.truncateAfter(file, 3), "steps 4 and 5 and the torn line");
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(List.of(MetricSpool.HEADER, SpoolLineParser.line("loss", 1, 1.0, 1001),
                SpoolLineParser.line("loss", 2, 0.5, 1002), SpoolLineParser.line("loss", 3, 1.0 / 3, 1003),
                SpoolLineParser.line("Vacc", 3, 0.8125, 2000)), lines);
        assertEquals(0, MetricSpool.truncateAfter(file, 3), "nothing left to drop");
        assertFalse(Files.exists(dir.resolve("metrics.csv.tmp")));

        try (MetricSpool.Writer out = MetricSpool.append(file)) {
            out.write(new MetricRecord("loss", 4, 0.25, 3004));
        }
        assertEquals(List.of(1L, 2L, 3L, 3L, 4L), MetricSpool.read(file).stream().map(MetricRecord::step).toList());
    }

    @Test
    void aSpoolFromBeforeChecksumsIsReadAndTakesCheckedLinesAppendedOnResume() throws IOException {
        Path file = dir.resolve("metrics.csv");
        Files.writeString(file, MetricSpool.UNCHECKED_HEADER + "\nloss,1,1.0,1001\nloss,2,0.5,1002\n");
        assertEquals(1, MetricSpool.truncateAfter(file, 1));
        try (MetricSpool.Writer out = MetricSpool.append(file)) {
            out.write(new MetricRecord("loss", 2, 0.25, 3002));
        }
        assertEquals(List.of(new MetricRecord("loss", 1, 1.0, 1001), new MetricRecord("loss", 2, 0.25, 3002)),
                MetricSpool.read(file));
    }

    @Test
    void aCheckedLineDamagedIntoAnotherRecordStopsTruncation() throws IOException {
        Path file = dir.resolve("metrics.csv");
        try (MetricSpool.Writer out = MetricSpool.append(file)) {
            out.write(new MetricRecord("loss", 1, 1.0, 1001));
            out.write(new MetricRecord("loss", 2, 0.5, 1002));
        }
        String good = Files.readString(file);
        Files.writeString(file, good.replace("loss,2,0.5,", "loss,2,0.6,"));
        BadFileException e = org.junit.jupiter.api.Assertions.assertThrows(BadFileException.class,
                () -> MetricSpool.truncateAfter(file, 1));
        assertTrue(e.getMessage().startsWith(file + ", line 3: expected a record " + MetricSpool.HEADER
                + " whose checksum matches the line, found 'loss,2,0.6,1002,"), e.getMessage());
        assertEquals(List.of(new MetricRecord("loss", 1, 1.0, 1001)), MetricSpool.read(file));
    }

    @Test
    void truncatingAnAbsentSpoolCreatesNothing() {
        assertEquals(0, MetricSpool.truncateAfter(dir.resolve("none.csv"), 0));
        assertFalse(Files.exists(dir.resolve("none.csv")));
    }
}
