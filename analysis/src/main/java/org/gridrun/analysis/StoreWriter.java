package org.gridrun.analysis;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;

/**
 * The upserts of the store, each keyed so that writing the same thing twice leaves one row.
 *
 * <p>The caller owns the transaction; nothing here commits.
 */
final class StoreWriter {
    private static final String MERGE_EXPERIMENT = "MERGE INTO experiments (id, grid, run, name, run_dir, params, "
            + "config, canonical, hash) KEY (id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String MERGE_PARAM = "MERGE INTO params (experiment_id, \"KEY\", \"VALUE\") "
            + "KEY (experiment_id, \"KEY\") VALUES (?, ?, ?)";
    private static final String MERGE_RUN = "MERGE INTO runs (experiment_id, state, host, started, ended, detail, "
            + "job, updated) KEY (experiment_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String MERGE_ATTEMPT = "MERGE INTO attempts (experiment_id, attempt, state, host, job, "
            + "started, ended, exit_code, fail_trace, git_commit, git_dirty, backend, updated) "
            + "KEY (experiment_id, attempt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String MERGE_MARK = "MERGE INTO spool_marks (experiment_id, spool, bytes, crc) "
            + "KEY (experiment_id) VALUES (?, ?, ?, ?)";

    private final Connection connection;
    private final MetricWriter metrics;

    StoreWriter(Connection connection) {
        this.connection = connection;
        this.metrics = new MetricWriter(connection);
    }

    /** Upserts the experiment row and its resolved config in the params table; {@code created} is kept. */
    void experiment(ExperimentRecord e, Path runDir) throws SQLException {
        try (PreparedStatement merge = connection.prepareStatement(MERGE_EXPERIMENT)) {
            merge.setString(1, e.id());
            merge.setString(2, e.grid());
            merge.setString(3, e.run());
            merge.setString(4, e.name());
            merge.setString(5, runDir == null ? null : runDir.toAbsolutePath().normalize().toString());
            merge.setString(6, FlatJson.write(e.params()));
            merge.setString(7, FlatJson.write(e.config()));
            String canonical = Canonical.json(e.config());
            merge.setString(8, canonical);
            merge.setString(9, Canonical.sha256(canonical));
            merge.executeUpdate();
        }
        try (PreparedStatement merge = connection.prepareStatement(MERGE_PARAM)) {
            for (Map.Entry<String, Object> entry : e.config().entrySet()) {
                merge.setString(1, e.id());
                merge.setString(2, entry.getKey());
                merge.setString(3, FlatJson.text(entry.getValue()));
                merge.addBatch();
            }
            merge.executeBatch();
        }
    }

    /** Upserts the run row, unless the store already holds a later state than {@code row}. */
    void run(String experimentId, RunRow row) throws SQLException {
        Instant stored = updated(experimentId);
        if (stored != null && stored.isAfter(row.updated())) {
            return;
        }
        try (PreparedStatement merge = connection.prepareStatement(MERGE_RUN)) {
            merge.setString(1, experimentId);
            merge.setString(2, row.state().name());
            merge.setString(3, row.host());
            setTime(merge, 4, row.started());
            setTime(merge, 5, row.ended());
            merge.setString(6, row.detail());
            merge.setString(7, row.job());
            setTime(merge, 8, row.updated());
            merge.executeUpdate();
        }
    }

    /** Upserts attempt rows, except those the store holds a later state of. */
    void attempts(String experimentId, List<Attempt> attempts) throws SQLException {
        Map<Integer, Instant> stored = StoreReader.attemptTimes(connection, experimentId);
        try (PreparedStatement merge = connection.prepareStatement(MERGE_ATTEMPT)) {
            for (Attempt a : attempts) {
                Instant before = stored.get(a.number());
                if (before != null && before.isAfter(a.updated())) {
                    continue;
                }
                merge.setString(1, experimentId);
                merge.setInt(2, a.number());
                merge.setString(3, a.state().name());
                merge.setString(4, a.host());
                merge.setString(5, a.job());
                setTime(merge, 6, a.started());
                setTime(merge, 7, a.ended());
                merge.setObject(8, a.exitCode(), Types.INTEGER);
                merge.setString(9, a.failTrace());
                merge.setString(10, a.gitCommit());
                merge.setObject(11, a.gitDirty(), Types.BOOLEAN);
                merge.setString(12, a.backend());
                setTime(merge, 13, a.updated());
                merge.addBatch();
            }
            merge.executeBatch();
        }
    }

    /** Records how much of an experiment's spool the rows written in this transaction cover. */
    void mark(String experimentId, Path spool, SpoolTail.Mark mark) throws SQLException {
        try (PreparedStatement merge = connection.prepareStatement(MERGE_MARK)) {
            merge.setString(1, experimentId);
            merge.setString(2, spool.toAbsolutePath().normalize().toString());
            merge.setLong(3, mark.bytes());
            merge.setLong(4, mark.crc());
            merge.executeUpdate();
        }
    }

    /** Upserts a submission row. */
    void submission(Submission s) throws SQLException {
        try (PreparedStatement merge = connection.prepareStatement("MERGE INTO submissions (job_id, grid, run, "
                + "script_prefix, sbatch_file, first_script, tasks, experiments, depends_on, submitted) KEY (job_id) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            merge.setString(1, s.jobId());
            merge.setString(2, s.grid());
            merge.setString(3, s.run());
            merge.setString(4, s.scriptPrefix());
            merge.setString(5, s.sbatchFile());
            merge.setInt(6, s.firstScript());
            merge.setInt(7, s.tasks());
            merge.setInt(8, s.experiments());
            merge.setString(9, s.dependsOn());
            setTime(merge, 10, s.submitted());
            merge.executeUpdate();
        }
    }

    /** Stores metric records once per (name, step); a step logged again keeps its later record. */
    void metrics(String experimentId, int attempt, List<MetricRecord> records) throws SQLException {
        metrics.write(experimentId, attempt, records);
    }

    /** As {@link #metrics}, for records of a spool read again from its start (see {@link MetricWriter#write}). */
    void metrics(String experimentId, int attempt, List<MetricRecord> records, boolean reread) throws SQLException {
        metrics.write(experimentId, attempt, records, reread);
    }

    /** The stored run row, or null when there is none. */
    RunRow storedRun(String experimentId) throws SQLException {
        return StoreReader.runRow(connection, experimentId);
    }

    private Instant updated(String experimentId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT updated FROM runs WHERE experiment_id = ?")) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? StoreReader.instant(rs, 1) : null;
            }
        }
    }

    private static void setTime(PreparedStatement statement, int index, Instant time) throws SQLException {
        if (time == null) {
            statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            statement.setObject(index, OffsetDateTime.ofInstant(time, ZoneOffset.UTC));
        }
    }
}
