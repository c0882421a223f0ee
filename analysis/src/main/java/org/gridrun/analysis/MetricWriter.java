package org.gridrun.analysis;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.MetricRecord;

/**
 * Writes an experiment's metric records so that each (name, step) is stored once, with its latest record, and keeps
 * the {@code latest} table in step.
 *
 * <p>It compares the records with the stored ones in their step range, metric by metric (an index seek: a spool's
 * new tail usually finds nothing), and writes only the difference: new keys through multi-row {@code INSERT}s (H2
 * runs each row of a JDBC batch as its own command, so packing rows into one statement halves the cost), changed
 * ones through a batched {@code MERGE}.
 */
final class MetricWriter {
    private static final int ROWS_PER_INSERT = 128;
    private static final String ROW = "(?, ?, ?, ?, ?, ?)";
    private static final String COLUMNS = "(experiment_id, name, step, \"VALUE\", wall_ms, attempt)";
    private static final String INSERT = "INSERT INTO metrics " + COLUMNS + " VALUES ";
    private static final String MERGE = "MERGE INTO metrics " + COLUMNS + " KEY (experiment_id, name, step) VALUES "
            + ROW;
    private static final String STORED = "SELECT step, \"VALUE\", wall_ms FROM metrics "
            + "WHERE experiment_id = ? AND name = ? AND step BETWEEN ? AND ?";
    private static final String LATEST = "MERGE INTO latest l USING (VALUES (CAST(? AS VARCHAR), CAST(? AS VARCHAR), "
            + "CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT))) s (e, n, step, v, wall) "
            + "ON l.experiment_id = s.e AND l.name = s.n "
            + "WHEN MATCHED AND l.step <= s.step THEN UPDATE SET step = s.step, \"VALUE\" = s.v, wall_ms = s.wall "
            + "WHEN NOT MATCHED THEN INSERT (experiment_id, name, step, \"VALUE\", wall_ms) "
            + "VALUES (s.e, s.n, s.step, s.v, s.wall)";

    private final Connection connection;

    MetricWriter(Connection connection) {
        this.connection = connection;
    }

    /**
     * Stores {@code records} of one experiment, written during {@code attempt}; of two records with one
     * (name, step), the later wins.
     */
    void write(String experimentId, int attempt, List<MetricRecord> records) throws SQLException {
        Map<String, Map<Long, MetricRecord>> byName = byName(records);
        List<MetricRecord> fresh = new ArrayList<>();
        List<MetricRecord> changed = new ArrayList<>();
        for (Map.Entry<String, Map<Long, MetricRecord>> metric : byName.entrySet()) {
            Map<Long, MetricRecord> stored = stored(experimentId, metric.getKey(), metric.getValue());
            for (MetricRecord record : metric.getValue().values()) {
                MetricRecord before = stored.get(record.step());
                if (before == null) {
                    fresh.add(record);
                } else if (!sameMeasurement(before, record)) {
                    changed.add(record);
                }
            }
        }
        insert(experimentId, attempt, fresh);
        merge(experimentId, attempt, changed);
        latest(experimentId, byName);
    }

    private static Map<String, Map<Long, MetricRecord>> byName(List<MetricRecord> records) {
        Map<String, Map<Long, MetricRecord>> byName = new LinkedHashMap<>();
        for (MetricRecord r : records) {
            byName.computeIfAbsent(r.name(), n -> new LinkedHashMap<>()).put(r.step(), r);
        }
        return byName;
    }

    private static boolean sameMeasurement(MetricRecord a, MetricRecord b) {
        return Double.compare(a.value(), b.value()) == 0 && a.wallMillis() == b.wallMillis();
    }

    private Map<Long, MetricRecord> stored(String experimentId, String name, Map<Long, MetricRecord> steps)
            throws SQLException {
        long min = Collections.min(steps.keySet());
        long max = Collections.max(steps.keySet());
        Map<Long, MetricRecord> stored = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement(STORED)) {
            query.setString(1, experimentId);
            query.setString(2, name);
            query.setLong(3, min);
            query.setLong(4, max);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    stored.put(rs.getLong(1), new MetricRecord(name, rs.getLong(1), rs.getDouble(2), rs.getLong(3)));
                }
            }
        }
        return stored;
    }

    private void insert(String experimentId, int attempt, List<MetricRecord> records) throws SQLException {
        int full = records.size() / ROWS_PER_INSERT * ROWS_PER_INSERT;
        if (full > 0) {
            try (PreparedStatement insert = connection.prepareStatement(insertSql(ROWS_PER_INSERT))) {
                for (int from = 0; from < full; from += ROWS_PER_INSERT) {
                    bindRows(insert, experimentId, attempt, records.subList(from, from + ROWS_PER_INSERT));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        if (full < records.size()) {
            try (PreparedStatement insert = connection.prepareStatement(insertSql(records.size() - full))) {
                bindRows(insert, experimentId, attempt, records.subList(full, records.size()));
                insert.executeUpdate();
            }
        }
    }

    private void merge(String experimentId, int attempt, List<MetricRecord> records) throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        try (PreparedStatement merge = connection.prepareStatement(MERGE)) {
            for (MetricRecord record : records) {
                bindRows(merge, experimentId, attempt, List.of(record));
                merge.addBatch();
            }
            merge.executeBatch();
        }
    }

    /** Moves each metric's latest row to the batch's highest step, unless the stored one is higher. */
    private void latest(String experimentId, Map<String, Map<Long, MetricRecord>> byName) throws SQLException {
        if (byName.isEmpty()) {
            return;
        }
        try (PreparedStatement merge = connection.prepareStatement(LATEST)) {
            for (Map<Long, MetricRecord> steps : byName.values()) {
                MetricRecord top = steps.get(Collections.max(steps.keySet()));
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

    private static String insertSql(int rows) {
        return INSERT + String.join(", ", Collections.nCopies(rows, ROW));
    }

    private static void bindRows(PreparedStatement statement, String experimentId, int attempt,
                                 List<MetricRecord> rows) throws SQLException {
        int p = 0;
        for (MetricRecord record : rows) {
            statement.setString(++p, experimentId);
            statement.setString(++p, record.name());
            statement.setLong(++p, record.step());
            statement.setDouble(++p, record.value());
            statement.setLong(++p, record.wallMillis());
            statement.setInt(++p, attempt);
        }
    }
}
