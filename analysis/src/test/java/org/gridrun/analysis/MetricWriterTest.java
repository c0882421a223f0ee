package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.gridrun.engine.run.MetricRecord;
import org.junit.jupiter.api.Test;

/**
 * Random batches, appending and reaching back, against a map of (metric, step) to its latest record as the oracle.
 */
class MetricWriterTest {
    @Test
    void randomBatchesLeaveEachStepOnceWithItsLatestRecord() throws Exception {
        String url = "jdbc:h2:mem:metric-writer;DB_CLOSE_DELAY=-1";
        Random random = new Random(20261121L);
        TreeMap<Long, MetricRecord> oracle = new TreeMap<>();
        TreeMap<Long, Integer> attempts = new TreeMap<>();
        try (ResultsStore store = ResultsStore.openUrl(url); Connection c = DriverManager.getConnection(url, "sa", "")) {
            MetricWriter writer = new MetricWriter(c);
            long next = 0;
            for (int batch = 0; batch < 40; batch++) {
                List<MetricRecord> records = new ArrayList<>();
                int n = 1 + random.nextInt(batch % 5 == 0 ? 3000 : 40);
                boolean reachBack = batch % 3 == 2 && next > 0;
                for (int i = 0; i < n; i++) {
                    long step = reachBack ? random.nextInt((int) next + 50) : next++;
                    MetricRecord r = new MetricRecord("loss", step, random.nextDouble(), batch);
                    records.add(r);
                    oracle.put(step, r);
                    attempts.put(step, 1 + batch / 10);
                }
                next = Math.max(next, oracle.lastKey() + 1);
                writer.write("e", 1 + batch / 10, records);
            }
            assertEquals(new ArrayList<>(oracle.values()), store.series("e", "loss"));
            assertEquals(oracle.lastEntry().getValue(), store.latest("e").get("loss"));
            for (int attempt = 1; attempt <= 4; attempt++) {
                final int a = attempt;
                assertEquals(attempts.values().stream().filter(x -> x == a).count(),
                        StoreTables.scalar(url, "SELECT COUNT(*) FROM metrics WHERE attempt = " + attempt));
            }
            assertEquals(oracle.size(), StoreTables.scalar(url, "SELECT COUNT(*) FROM metrics"));
            assertEquals(0L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metric_blocks "
                    + "WHERE CARDINALITY(steps) > " + MetricBlock.MAX_POINTS));
        }
    }

    @Test
    void liveBatchesOfAFewRecordsFillTheLastBlockInsteadOfAddingTinyOnes() throws Exception {
        String url = "jdbc:h2:mem:metric-writer-live;DB_CLOSE_DELAY=-1";
        try (ResultsStore store = ResultsStore.openUrl(url); Connection c = DriverManager.getConnection(url, "sa", "")) {
            MetricWriter writer = new MetricWriter(c);
            for (long step = 0; step < 2000; step += 4) {
                List<MetricRecord> records = new ArrayList<>();
                for (long s = step; s < step + 4; s++) {
                    records.add(new MetricRecord("loss", s, s * 0.5, s));
                }
                writer.write("e", 1, records);
            }
            assertEquals(2L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metric_blocks"));
            assertEquals(2000, store.series("e", "loss").size());
            writer.write("e", 2, List.of(new MetricRecord("loss", 2000, 1.0, 1)));
            assertEquals(3L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metric_blocks"));
            assertEquals(1L, StoreTables.scalar(url, "SELECT COUNT(*) FROM metrics WHERE attempt = 2"));
        }
    }
}
