package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTailTest {
    @TempDir
    Path tmp;

    @Test
    void readingAheadHandsOverTheSameBatchesInOrder() throws Exception {
        SpoolTail tail = SpoolTail.read(spool(2_500), SpoolTail.Mark.START);
        List<SpoolTail.Batch> plain = new ArrayList<>();
        tail.forEachBatch(1_000, plain::add);
        List<SpoolTail.Batch> ahead = new ArrayList<>();
        tail.forEachBatchReadingAhead(1_000, ahead::add);
        assertEquals(3, plain.size());
        assertEquals(plain, ahead);
        assertEquals(2_500, ahead.stream().mapToInt(b -> b.records().size()).sum());
    }

    @Test
    void aFailingSinkStopsTheReadingAndItsFailureComesThrough() throws Exception {
        SpoolTail tail = SpoolTail.read(spool(5_000), SpoolTail.Mark.START);
        List<SpoolTail.Batch> seen = new ArrayList<>();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> tail.forEachBatchReadingAhead(1_000, batch -> {
                    seen.add(batch);
                    if (seen.size() == 2) {
                        throw new IllegalStateException("store went away");
                    }
                }));
        assertEquals("store went away", e.getMessage());
        assertEquals(2, seen.size());
        assertEquals(1_000, seen.get(1).records().get(0).step());
    }

    private Path spool(int records) {
        Path file = tmp.resolve("metrics-" + records + ".csv");
        try (MetricSpool.Writer writer = MetricSpool.append(file)) {
            for (int i = 0; i < records; i++) {
                writer.write(new MetricRecord("loss", i, 1.0 / (i + 1), 1000 + i));
            }
        }
        return file;
    }
}
