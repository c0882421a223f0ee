package org.gridrun.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
        assertEquals(List.of(MetricSpool.HEADER, "loss,1,1.0,1001", "loss,2,0.5,1002", "loss,3,0.3333333333333333,1003",
                "Vacc,3,0.8125,2000"), lines);
        assertEquals(0, MetricSpool.truncateAfter(file, 3), "nothing left to drop");
        assertFalse(Files.exists(dir.resolve("metrics.csv.tmp")));

        try (MetricSpool.Writer out = MetricSpool.append(file)) {
            out.write(new MetricRecord("loss", 4, 0.25, 3004));
        }
        assertEquals(List.of(1L, 2L, 3L, 3L, 4L), MetricSpool.read(file).stream().map(MetricRecord::step).toList());
    }

    @Test
    void truncatingAnAbsentSpoolCreatesNothing() {
        assertEquals(0, MetricSpool.truncateAfter(dir.resolve("none.csv"), 0));
        assertFalse(Files.exists(dir.resolve("none.csv")));
    }
}
