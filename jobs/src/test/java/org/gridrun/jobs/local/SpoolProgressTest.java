package org.gridrun.jobs.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gridrun.engine.run.MetricSpool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The running jobs' progress read from their spools' tails, as the trainer writes them. */
class SpoolProgressTest {
    @TempDir
    Path dir;

    @Test
    void readsTheLastStepOfASpoolTheTrainerWrites() throws IOException {
        Path spool = dir.resolve("metrics.csv");
        assertEquals(0, SpoolProgress.lastStep(spool), "no spool yet");
        try (MetricSpool.Writer out = MetricSpool.append(spool)) {
            assertEquals(0, SpoolProgress.lastStep(spool), "only the header");
            for (long step = 50; step <= 2750; step += 50) {
                out.write("loss", step, 0.5);
                out.write("bits", step, 809358.0);
            }
        }
        assertEquals(2750, SpoolProgress.lastStep(spool));
    }

    @Test
    void aPartOfALineOrADamagedLineIsNoProgress() throws IOException {
        Path spool = dir.resolve("metrics.csv");
        try (MetricSpool.Writer out = MetricSpool.append(spool)) {
            out.write("loss", 100, 0.5);
        }
        String text = Files.readString(spool, StandardCharsets.UTF_8);
        Files.writeString(spool, text + "loss,150,0.4");
        assertEquals(100, SpoolProgress.lastStep(spool), "a line still being written waits for its break");
        Files.writeString(spool, text + "loss,999150,0.4,1795752463168,840464df\n");
        assertEquals(0, SpoolProgress.lastStep(spool), "a line whose checksum fails is no record");
        Files.writeString(spool, MetricSpool.UNCHECKED_HEADER + "\nloss,200,0.3,1795752463168\n");
        assertEquals(200, SpoolProgress.lastStep(spool), "a spool written before the checksum");
    }
}
