package org.gridrun.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;

/**
 * The H2 database that holds every experiment of every grid: configs, run lifecycles and metric records.
 *
 * <p>Open it with {@link #open(Path)} (a file database that a second process may open at the same time, through
 * H2's automatic mixed mode) or {@link #openUrl(String)}; opening applies any schema migration the store lacks and
 * rejects a store written by a newer gridrun. Then {@link #ingest(RunDir)} run directories, any number of times,
 * and query. Close it when done.
 *
 * <p>Methods are synchronized on the store, which holds one connection; failures are {@link StoreException}s
 * naming the store.
 */
public final class ResultsStore implements AutoCloseable {
    private static final String H2_SUFFIX = ".mv.db";

    private final Connection connection;
    private final String url;
    private final StoreWriter writer;
    private final StoreReader reader;

    private ResultsStore(Connection connection, String url) {
        this.connection = connection;
        this.url = url;
        this.writer = new StoreWriter(connection);
        this.reader = new StoreReader(connection);
    }

    /**
     * Opens (creating when absent) the file database whose base name is {@code databaseFile}.
     *
     * <p>H2 appends {@code .mv.db}: {@code runs/gridrun} is stored in {@code runs/gridrun.mv.db} (a path that already
     * ends in {@code .mv.db} means the same file). Parent directories are created.
     */
    public static ResultsStore open(Path databaseFile) {
        Path base = databaseFile.toAbsolutePath().normalize();
        String name = base.getFileName().toString();
        if (name.endsWith(H2_SUFFIX)) {
            base = base.resolveSibling(name.substring(0, name.length() - H2_SUFFIX.length()));
        }
        try {
            Files.createDirectories(base.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the directory of results store " + base + ": "
                    + e.getMessage(), e);
        }
        return openUrl("jdbc:h2:file:" + base + ";AUTO_SERVER=TRUE");
    }

    /** Opens the store at an H2 JDBC URL (user {@code sa}, empty password), e.g. {@code jdbc:h2:mem:test}. */
    public static ResultsStore openUrl(String jdbcUrl) {
        Connection connection;
        try {
            connection = DriverManager.getConnection(jdbcUrl, "sa", "");
        } catch (SQLException e) {
            throw new StoreException("cannot open results store " + jdbcUrl + ": " + e.getMessage(), e);
        }
        try {
            Migrations.apply(connection, jdbcUrl);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection, e);
            throw e instanceof StoreException se ? se
                    : new StoreException("cannot migrate results store " + jdbcUrl + ": " + e.getMessage(), e);
        }
        return new ResultsStore(connection, jdbcUrl);
    }

    /** The JDBC URL of this store. */
    public String url() {
        return url;
    }

    /** The schema version of this store. */
    public synchronized int schemaVersion() {
        return query("read the schema version", () -> Migrations.currentVersion(connection));
    }

    /**
     * Reads a run directory's {@code experiment.yaml}, status history and metric spool and upserts them in one
     * transaction.
     *
     * <p>Idempotent: ingesting again, or after more records were appended, leaves each row once (a metric step
     * logged twice keeps its latest value; a torn last spool line is skipped). A status history older than the
     * state already stored (one {@link #recordState} wrote) does not replace it.
     *
     * @return the number of metric records read from the spool
     */
    public synchronized int ingest(RunDir dir) {
        ExperimentRecord experiment = dir.readExperiment();
        List<StatusEntry> history = dir.status().history();
        List<MetricRecord> records = MetricSpool.read(dir.metricsFile());
        inTransaction("ingest " + dir, () -> {
            writer.experiment(experiment, dir.path());
            RunRow row = RunRow.fold(history);
            if (row != null) {
                writer.run(experiment.id(), row);
            }
            writer.metrics(experiment.id(), records);
            return null;
        });
        return records.size();
    }

    /**
     * Records a state the orchestrator entered before the job wrote anything (STAGED, QUEUED), with the
     * experiment itself.
     *
     * <p>{@code entry} continues the stored attempt, or starts a new one after a terminal state or on STAGED.
     */
    public synchronized void recordState(ExperimentRecord experiment, Path runDir, StatusEntry entry) {
        inTransaction("record " + entry.state() + " of " + experiment.name(), () -> {
            writer.experiment(experiment, runDir);
            writer.run(experiment.id(), RunRow.next(writer.storedRun(experiment.id()), entry));
            return null;
        });
    }

    /** An experiment entering a state: what {@link #recordStates} takes. */
    public record StateChange(ExperimentRecord experiment, Path runDir, StatusEntry entry) {
    }

    /** {@link #recordState} for many experiments in one transaction, for plans of thousands. */
    public synchronized void recordStates(List<StateChange> changes) {
        inTransaction("record " + changes.size() + " states", () -> {
            for (StateChange c : changes) {
                writer.experiment(c.experiment(), c.runDir());
                writer.run(c.experiment().id(), RunRow.next(writer.storedRun(c.experiment().id()), c.entry()));
            }
            return null;
        });
    }

    /** Records a batch submission; submitting the same job id again replaces its row. */
    public synchronized void recordSubmission(Submission submission) {
        inTransaction("record submission " + submission.jobId(), () -> {
            writer.submission(submission);
            return null;
        });
    }

    /** The submissions of a grid ({@code run} null: of every run), oldest first. */
    public synchronized List<Submission> submissions(String grid, String run) {
        return query("list the submissions of " + grid, () -> reader.submissions(grid, run));
    }

    /** The current state of an experiment, empty when the store has none. */
    public synchronized Optional<RunState> state(String experimentId) {
        return query("read the state of " + experimentId, () -> reader.state(experimentId));
    }

    /** The experiments of a grid ({@code run} null: of every run), ordered by name. */
    public synchronized List<StoredExperiment> experiments(String grid, String run) {
        return query("list the experiments of " + grid, () -> reader.experiments(grid, run));
    }

    /** The metric's records of an experiment, ordered by step; empty when there are none. */
    public synchronized List<MetricRecord> series(String experimentId, String metric) {
        return query("read " + metric + " of " + experimentId, () -> reader.series(experimentId, metric));
    }

    /**
     * How many experiments of a grid ({@code run} null: of every run) are in each state, in lifecycle order.
     *
     * <p>States no experiment is in, and experiments with no recorded state, are left out.
     */
    public synchronized Map<RunState, Integer> stateCounts(String grid, String run) {
        return query("count the states of " + grid, () -> reader.stateCounts(grid, run));
    }

    /** The metric's value at the experiment's highest step, empty when there is none. */
    public synchronized Optional<Double> last(String experimentId, String metric) {
        return query("read " + metric + " of " + experimentId, () -> reader.last(experimentId, metric));
    }

    /** The mean of the metric's values over all steps of the experiment, empty when there are none. */
    public synchronized Optional<Double> mean(String experimentId, String metric) {
        return query("read " + metric + " of " + experimentId, () -> reader.mean(experimentId, metric));
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new StoreException("cannot close results store " + url + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "ResultsStore[" + url + "]";
    }

    private <T> T query(String what, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new StoreException("results store " + url + ": cannot " + what + ": " + e.getMessage(), e);
        }
    }

    private <T> T inTransaction(String what, SqlWork<T> work) {
        return query(what, () -> {
            connection.setAutoCommit(false);
            try {
                T result = work.run();
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        });
    }

    private static void closeQuietly(Connection connection, Exception failure) {
        try {
            connection.close();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    /** Database work that may throw {@link SQLException}. */
    @FunctionalInterface
    private interface SqlWork<T> {
        T run() throws SQLException;
    }
}
