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
 * Writes an experiment's metric records so that each (name, step) is stored once, with its latest record.
 *
 * <p>It compares the records with what the store already holds and writes only the difference: new keys through
 * multi-row {@code INSERT}s (H2 runs each row of a JDBC batch as its own command, so packing rows into one statement
 * halves the cost), changed ones through a batched {@code MERGE}. Re-ingesting an unchanged spool writes nothing.
 */
final class MetricWriter {
    private static final int ROWS_PER_INSERT = 128;
    private static final String ROW = "(?, ?, ?, ?, ?)";
    private static final String INSERT = "INSERT INTO metrics (experiment_id, name, step, \"VALUE\", wall_ms) VALUES ";
    private static final String MERGE = "MERGE INTO metrics (experiment_id, name, step, \"VALUE\", wall_ms) "
            + "KEY (experiment_id, name, step) VALUES " + ROW;
    private static final String STORED = "SELECT name, step, \"VALUE\", wall_ms FROM metrics WHERE experiment_id = ?";

    private final Connection connection;

    MetricWriter(Connection connection) {
        this.connection = connection;
    }

    /** Stores {@code records} of one experiment; of two records with one (name, step), the later wins. */
    void write(String experimentId, List<MetricRecord> records) throws SQLException {
        Map<Key, MetricRecord> stored = stored(experimentId);
        List<MetricRecord> fresh = new ArrayList<>();
        List<MetricRecord> changed = new ArrayList<>();
        for (MetricRecord record : latest(records).values()) {
            MetricRecord before = stored.get(Key.of(record));
            if (before == null) {
                fresh.add(record);
            } else if (!sameMeasurement(before, record)) {
                changed.add(record);
            }
        }
        insert(experimentId, fresh);
        merge(experimentId, changed);
    }

    private static Map<Key, MetricRecord> latest(List<MetricRecord> records) {
        Map<Key, MetricRecord> latest = new LinkedHashMap<>();
        records.forEach(r -> latest.put(Key.of(r), r));
        return latest;
    }

    private static boolean sameMeasurement(MetricRecord a, MetricRecord b) {
        return Double.compare(a.value(), b.value()) == 0 && a.wallMillis() == b.wallMillis();
    }

    private Map<Key, MetricRecord> stored(String experimentId) throws SQLException {
        Map<Key, MetricRecord> stored = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement(STORED)) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    MetricRecord r = new MetricRecord(rs.getString(1), rs.getLong(2), rs.getDouble(3), rs.getLong(4));
                    stored.put(Key.of(r), r);
                }
            }
        }
        return stored;
    }

    private void insert(String experimentId, List<MetricRecord> records) throws SQLException {
        int full = records.size() / ROWS_PER_INSERT * ROWS_PER_INSERT;
        if (full > 0) {
            try (PreparedStatement insert = connection.prepareStatement(insertSql(ROWS_PER_INSERT))) {
                for (int from = 0; from < full; from += ROWS_PER_INSERT) {
                    bindRows(insert, experimentId, records.subList(from, from + ROWS_PER_INSERT));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        if (full < records.size()) {
            try (PreparedStatement insert = connection.prepareStatement(insertSql(records.size() - full))) {
                bindRows(insert, experimentId, records.subList(full, records.size()));
                insert.executeUpdate();
            }
        }
    }

    private void merge(String experimentId, List<MetricRecord> records) throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        try (PreparedStatement merge = connection.prepareStatement(MERGE)) {
            for (MetricRecord record : records) {
                bindRows(merge, experimentId, List.of(record));
                merge.addBatch();
            }
            merge.executeBatch();
        }
    }

    private static String insertSql(int rows) {
        return INSERT + String.join(", ", Collections.nCopies(rows, ROW));
    }

    private static void bindRows(PreparedStatement statement, String experimentId, List<MetricRecord> rows)
            throws SQLException {
        int p = 0;
        for (MetricRecord record : rows) {
            statement.setString(++p, experimentId);
            statement.setString(++p, record.name());
            statement.setLong(++p, record.step());
            statement.setDouble(++p, record.value());
            statement.setLong(++p, record.wallMillis());
        }
    }

    /** The identity of a record within one experiment. */
    private record Key(String name, long step) {
        static Key of(MetricRecord record) {
            return new Key(record.name(), record.step());
        }
    }
}
