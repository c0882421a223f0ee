package org.gridrun.analysis;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.MetricRecord;

/**
 * Writes an experiment's metric records into blocks so that each (name, step) is stored once, with its latest record,
 * and keeps the {@code latest} table in step.
 *
 * <p>A metric's batch whose lowest step lies above the stored latest step (a spool's new tail, nearly always) only
 * appends: new blocks, the series' last block rewritten when it has room and is of the same attempt, so live ingests
 * of a few records do not leave a trail of tiny blocks. A batch that reaches back into stored steps (a resumed job
 * logging steps again, a changed spool read whole) rewrites the blocks it overlaps, its records winning.
 */
final class MetricWriter {
    private static final String LATEST = "MERGE INTO latest l USING (VALUES (CAST(? AS VARCHAR), CAST(? AS VARCHAR), "
            + "CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT))) s (e, n, step, v, wall) "
            + "ON l.experiment_id = s.e AND l.name = s.n "
            + "WHEN MATCHED AND l.step <= s.step THEN UPDATE SET step = s.step, \"VALUE\" = s.v, wall_ms = s.wall "
            + "WHEN NOT MATCHED THEN INSERT (experiment_id, name, step, \"VALUE\", wall_ms) "
            + "VALUES (s.e, s.n, s.step, s.v, s.wall)";

    private final Connection connection;
    private final MetricBlockTable blocks;

    MetricWriter(Connection connection) {
        this.connection = connection;
        this.blocks = new MetricBlockTable(connection);
    }

    /**
     * Stores {@code records} of one experiment, written during {@code attempt}; of two records with one
     * (name, step), the later wins.
     */
    void write(String experimentId, int attempt, List<MetricRecord> records) throws SQLException {
        write(experimentId, attempt, records, false);
    }

    /**
     * As {@link #write(String, int, List)}; with {@code reread} (records of a spool read again from its start), a
     * record that contradicts a stored one of the same step and wall time fails with a {@link DamagedRecord} and
     * nothing of the batch is kept.
     */
    void write(String experimentId, int attempt, List<MetricRecord> records, boolean reread) throws SQLException {
        Map<String, List<MetricRecord>> byName = byName(records);
        if (byName.isEmpty()) {
            return;
        }
        Map<String, Integer> ids = blocks.seriesIds(experimentId);
        Map<String, Long> latestSteps = latestSteps(experimentId);
        Map<String, MetricRecord> tops = new LinkedHashMap<>();
        for (Map.Entry<String, List<MetricRecord>> metric : byName.entrySet()) {
            String name = metric.getKey();
            SeriesPoints fresh = SeriesPoints.of(metric.getValue(), attempt);
            Integer id = ids.get(name);
            if (id == null) {
                blocks.replace(blocks.createSeries(experimentId, name), List.of(), fresh.blocks());
            } else {
                try {
                    write(id, attempt, fresh, latestSteps.get(name), reread);
                } catch (SeriesPoints.Contradiction c) {
                    throw new DamagedRecord(name, c);
                }
            }
            tops.put(name, fresh.record(name, fresh.size() - 1));
        }
        latest(experimentId, tops);
    }

    private void write(int seriesId, int attempt, SeriesPoints fresh, Long latestStep, boolean reread)
            throws SQLException {
        boolean appends = latestStep != null && fresh.firstStep() > latestStep;
        long from = latestStep == null ? fresh.firstStep() : Math.min(fresh.firstStep(), latestStep);
        List<MetricBlock> touched = blocks.blocks(seriesId, from, fresh.lastStep());
        if (appends) {
            touched = touched.stream()
                    .filter(b -> b.attempt() == attempt && b.size() < MetricBlock.MAX_POINTS).toList();
        }
        SeriesPoints merged = touched.isEmpty() ? fresh : SeriesPoints.of(touched).overwrittenBy(fresh, reread);
        blocks.replace(seriesId, touched, merged.blocks());
    }

    private static Map<String, List<MetricRecord>> byName(List<MetricRecord> records) {
        Map<String, List<MetricRecord>> byName = new LinkedHashMap<>();
        for (MetricRecord r : records) {
            byName.computeIfAbsent(r.name(), n -> new ArrayList<>()).add(r);
        }
        return byName;
    }

    private Map<String, Long> latestSteps(String experimentId) throws SQLException {
        Map<String, Long> steps = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT name, step FROM latest WHERE experiment_id = ?")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    steps.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return steps;
    }

    /** Moves each metric's latest row to the batch's highest step, unless the stored one is higher. */
    private void latest(String experimentId, Map<String, MetricRecord> tops) throws SQLException {
        try (PreparedStatement merge = connection.prepareStatement(LATEST)) {
            for (MetricRecord top : tops.values()) {
                merge.setString(1, experimentId);
                merge.setString(2, top.name());
                merge.setLong(3, top.step());
                merge.setDouble(4, top.value());
                merge.setLong(5, top.wallMillis());
                merge.addBatch();
            }
            merge.executeBatch();
        }
    }

    /** A record of metric {@code name} that contradicts the stored one: what {@code reread} writes refuse. */
    static final class DamagedRecord extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DamagedRecord(String name, SeriesPoints.Contradiction c) {
            super(name + " " + c.getMessage(), c);
        }
    }
}
