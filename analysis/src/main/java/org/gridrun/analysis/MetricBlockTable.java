package org.gridrun.analysis;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of {@code metric_series} and {@code metric_blocks}: series ids by experiment and metric name, and the
 * blocks of a series.
 *
 * <p>The caller owns the transaction; nothing here commits.
 */
final class MetricBlockTable {
    private static final String BLOCK_COLUMNS = "attempt, steps, metric_values, wall_times";
    private static final String INSERT = "INSERT INTO metric_blocks (series_id, first_step, last_step, "
            + BLOCK_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String DELETE = "DELETE FROM metric_blocks WHERE series_id = ? AND first_step = ?";

    private final Connection connection;

    MetricBlockTable(Connection connection) {
        this.connection = connection;
    }

    /** The series id of each metric of an experiment, by metric name. */
    Map<String, Integer> seriesIds(String experimentId) throws SQLException {
        Map<String, Integer> ids = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT name, series_id FROM metric_series WHERE experiment_id = ?")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    ids.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return ids;
    }

    /** The series id of one metric of an experiment, or null when it has no records. */
    Integer seriesId(String experimentId, String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT series_id FROM metric_series WHERE experiment_id = ? AND name = ?")) {
            query.setString(1, experimentId);
            query.setString(2, name);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getInt(1) : null;
            }
        }
    }

    /** Creates the series of a metric of an experiment and returns its id. */
    int createSeries(String experimentId, String name) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO metric_series (experiment_id, name) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, experimentId);
            insert.setString(2, name);
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getInt(1);
            }
        }
    }

    /** Every block of a series, in the order of their first steps. */
    List<MetricBlock> blocks(int seriesId) throws SQLException {
        return blocks(seriesId, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** The blocks of a series that end at or after {@code fromStep} and begin at or before {@code toStep}. */
    List<MetricBlock> blocks(int seriesId, long fromStep, long toStep) throws SQLException {
        List<MetricBlock> blocks = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT " + BLOCK_COLUMNS + " FROM metric_blocks "
                + "WHERE series_id = ? AND last_step >= ? AND first_step <= ? ORDER BY first_step")) {
            query.setInt(1, seriesId);
            query.setLong(2, fromStep);
            query.setLong(3, toStep);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    blocks.add(new MetricBlock(rs.getInt(1), longs(rs.getArray(2)), doubles(rs.getArray(3)),
                            longs(rs.getArray(4))));
                }
            }
        }
        return blocks;
    }

    /** Replaces blocks {@code stale} of a series by {@code fresh}. */
    void replace(int seriesId, List<MetricBlock> stale, List<MetricBlock> fresh) throws SQLException {
        if (!stale.isEmpty()) {
            try (PreparedStatement delete = connection.prepareStatement(DELETE)) {
                for (MetricBlock b : stale) {
                    delete.setInt(1, seriesId);
                    delete.setLong(2, b.firstStep());
                    delete.addBatch();
                }
                delete.executeBatch();
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            for (MetricBlock b : fresh) {
                insert.setInt(1, seriesId);
                insert.setLong(2, b.firstStep());
                insert.setLong(3, b.lastStep());
                insert.setInt(4, b.attempt());
                insert.setObject(5, boxed(b.steps()));
                insert.setObject(6, boxed(b.values()));
                insert.setObject(7, boxed(b.walls()));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static Long[] boxed(long[] values) {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }

    private static Double[] boxed(double[] values) {
        Double[] boxed = new Double[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }

    private static long[] longs(Array array) throws SQLException {
        Object[] values = (Object[]) array.getArray();
        long[] longs = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            longs[i] = ((Number) values[i]).longValue();
        }
        return longs;
    }

    private static double[] doubles(Array array) throws SQLException {
        Object[] values = (Object[]) array.getArray();
        double[] doubles = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            doubles[i] = ((Number) values[i]).doubleValue();
        }
        return doubles;
    }
}
