package org.gridrun.analysis;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunState;

/**
 * The queries of the store.
 *
 * <p>Grid-wide queries take a grid name and a run name, where a null run means every run of the grid.
 */
final class StoreReader {
    private static final String EXPERIMENTS = "SELECT e.id, e.grid, e.run, e.name, e.run_dir, e.params, e.config, "
            + "r.state, r.host, r.started, r.ended, r.detail, r.job "
            + "FROM experiments e LEFT JOIN runs r ON r.experiment_id = e.id WHERE e.grid = ?";
    private static final String STATE_COUNTS = "SELECT r.state, COUNT(*) FROM experiments e "
            + "JOIN runs r ON r.experiment_id = e.id WHERE e.grid = ?";

    private final Connection connection;
    private final MetricBlockTable blocks;

    StoreReader(Connection connection) {
        this.connection = connection;
        this.blocks = new MetricBlockTable(connection);
    }

    Optional<RunState> state(String experimentId) throws SQLException {
        return Optional.ofNullable(runRow(connection, experimentId)).map(RunRow::state);
    }

    List<StoredExperiment> experiments(String grid, String run) throws SQLException {
        String sql = EXPERIMENTS + (run == null ? "" : " AND e.run = ?") + " ORDER BY e.name, e.run, e.id";
        List<StoredExperiment> result = new ArrayList<>();
        try (PreparedStatement query = gridQuery(sql, grid, run); ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                result.add(experiment(rs));
            }
        }
        return result;
    }

    List<Submission> submissions(String grid, String run) throws SQLException {
        String sql = "SELECT job_id, grid, run, script_prefix, sbatch_file, first_script, tasks, experiments, "
                + "depends_on, submitted FROM submissions WHERE grid = ?" + (run == null ? "" : " AND run = ?")
                + " ORDER BY submitted, job_id";
        List<Submission> result = new ArrayList<>();
        try (PreparedStatement query = gridQuery(sql, grid, run); ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                result.add(new Submission(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getInt(6), rs.getInt(7), rs.getInt(8), rs.getString(9),
                        instant(rs, 10)));
            }
        }
        return result;
    }

    Map<RunState, Integer> stateCounts(String grid, String run) throws SQLException {
        String sql = STATE_COUNTS + (run == null ? "" : " AND e.run = ?") + " GROUP BY r.state";
        Map<RunState, Integer> counts = new EnumMap<>(RunState.class);
        try (PreparedStatement query = gridQuery(sql, grid, run); ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                counts.put(RunState.valueOf(rs.getString(1)), rs.getInt(2));
            }
        }
        return counts;
    }

    List<MetricRecord> series(String experimentId, String metric) throws SQLException {
        Integer seriesId = blocks.seriesId(experimentId, metric);
        if (seriesId == null) {
            return List.of();
        }
        List<MetricBlock> stored = blocks.blocks(seriesId);
        if (stored.isEmpty()) {
            return List.of();
        }
        SeriesPoints points = SeriesPoints.of(stored);
        List<MetricRecord> records = new ArrayList<>(points.size());
        for (int i = 0; i < points.size(); i++) {
            records.add(points.record(metric, i));
        }
        return records;
    }

    Optional<Double> last(String experimentId, String metric) throws SQLException {
        return single("SELECT \"VALUE\" FROM latest WHERE experiment_id = ? AND name = ?", experimentId, metric);
    }

    /** Each metric's record at its highest step, by metric name. */
    Map<String, MetricRecord> latest(String experimentId) throws SQLException {
        Map<String, MetricRecord> latest = new TreeMap<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT name, step, \"VALUE\", wall_ms "
                + "FROM latest WHERE experiment_id = ?")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    latest.put(rs.getString(1), new MetricRecord(rs.getString(1), rs.getLong(2), rs.getDouble(3),
                            rs.getLong(4)));
                }
            }
        }
        return latest;
    }

    /** The attempts of an experiment, oldest first. */
    static List<Attempt> attempts(Connection connection, String experimentId) throws SQLException {
        List<Attempt> attempts = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT attempt, state, host, job, started, "
                + "ended, exit_code, fail_trace, git_commit, git_dirty, backend, updated FROM attempts "
                + "WHERE experiment_id = ? ORDER BY attempt")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    attempts.add(new Attempt(rs.getInt(1), RunState.valueOf(rs.getString(2)), rs.getString(3),
                            rs.getString(4), instant(rs, 5), instant(rs, 6), rs.getObject(7, Integer.class),
                            rs.getString(8), rs.getString(9), rs.getObject(10, Boolean.class), rs.getString(11),
                            instant(rs, 12)));
                }
            }
        }
        return attempts;
    }

    /** The time of each stored attempt's latest state, by attempt number. */
    static Map<Integer, Instant> attemptTimes(Connection connection, String experimentId) throws SQLException {
        Map<Integer, Instant> times = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT attempt, updated FROM attempts WHERE experiment_id = ?")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    times.put(rs.getInt(1), instant(rs, 2));
                }
            }
        }
        return times;
    }

    /** How much of the experiment's spool is stored; {@link SpoolTail.Mark#START} when nothing is. */
    static SpoolTail.Mark mark(Connection connection, String experimentId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT bytes, crc FROM spool_marks WHERE experiment_id = ?")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? new SpoolTail.Mark(rs.getLong(1), rs.getLong(2)) : SpoolTail.Mark.START;
            }
        }
    }

    Optional<Double> mean(String experimentId, String metric) throws SQLException {
        List<MetricRecord> records = series(experimentId, metric);
        return records.isEmpty() ? Optional.empty()
                : Optional.of(records.stream().mapToDouble(MetricRecord::value).average().orElseThrow());
    }

    /** The stored run row of one experiment, or null. */
    static RunRow runRow(Connection connection, String experimentId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT state, host, started, ended, detail, "
                + "job, updated FROM runs WHERE experiment_id = ?")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? new RunRow(RunState.valueOf(rs.getString(1)), rs.getString(2), instant(rs, 3),
                        instant(rs, 4), rs.getString(5), rs.getString(6), instant(rs, 7)) : null;
            }
        }
    }

    /** A timestamp column as an instant, or null. */
    static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime time = rs.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }

    private StoredExperiment experiment(ResultSet rs) throws SQLException {
        String runDir = rs.getString(5);
        String state = rs.getString(8);
        return new StoredExperiment(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                runDir == null ? null : Path.of(runDir), FlatJson.read(rs.getString(6)),
                FlatJson.read(rs.getString(7)), state == null ? null : RunState.valueOf(state), rs.getString(9),
                instant(rs, 10), instant(rs, 11), rs.getString(12), rs.getString(13));
    }

    private Optional<Double> single(String sql, String experimentId, String metric) throws SQLException {
        try (PreparedStatement query = metricQuery(sql, experimentId, metric); ResultSet rs = query.executeQuery()) {
            return rs.next() ? Optional.of(rs.getDouble(1)) : Optional.empty();
        }
    }

    private PreparedStatement metricQuery(String sql, String experimentId, String metric) throws SQLException {
        PreparedStatement query = connection.prepareStatement(sql);
        query.setString(1, experimentId);
        query.setString(2, metric);
        return query;
    }

    private PreparedStatement gridQuery(String sql, String grid, String run) throws SQLException {
        PreparedStatement query = connection.prepareStatement(sql);
        query.setString(1, grid);
        if (run != null) {
            query.setString(2, run);
        }
        return query;
    }
}
