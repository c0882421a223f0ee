package org.gridrun.analysis;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.train.Headline;

/**
 * The H2 database that holds every experiment of every grid: configs, run lifecycles and metric records.
 *
 * <p>Open it with {@link #open(Path)} (a file database that a second process on the same host may open at the same
 * time, through H2's automatic mixed mode, whose server listens on loopback only) or {@link #openUrl(String)};
 * opening logs in with the store's {@link StoreSecret} (creating both for a new store, giving an older store its
 * secret), applies any schema migration the store lacks, rejects a store written by a newer gridrun and, for a file
 * store, warns when it holds fewer metric records than its {@link RowLedger witness} says were stored. Then
 * {@link #ingest(RunDir)} run directories, any number of times, and query. Close it when done.
 *
 * <p>Methods are synchronized on the store, which holds one connection; failures are {@link StoreException}s
 * naming the store.
 */
public final class ResultsStore implements AutoCloseable {
    static {
        StoreNetwork.loopbackByDefault();
    }

    /** The metric records ingested per transaction. */
    static final int BATCH_ROWS = 100_000;
    private static final int INGEST_TRIES = 3;
    private static final String H2_SUFFIX = ".mv.db";

    private final Connection connection;
    private final String url;
    private final StoreWriter writer;
    private final StoreReader reader;
    private final RowLedger ledger;

    private ResultsStore(Connection connection, String url, RowLedger ledger) {
        this.connection = connection;
        this.url = url;
        this.writer = new StoreWriter(connection);
        this.reader = new StoreReader(connection);
        this.ledger = ledger;
    }

    /**
     * Opens (creating when absent) the file database whose base name is {@code databaseFile}.
     *
     * <p>H2 appends {@code .mv.db}: {@code runs/gridrun} is stored in {@code runs/gridrun.mv.db} (a path that already
     * ends in {@code .mv.db} means the same file). Missing parent directories are created readable by their owner
     * only. When {@code grid-run db serve} on this host holds the store, it is opened through that server.
     */
    public static ResultsStore open(Path databaseFile) {
        Path base = basePath(databaseFile);
        Optional<String> served = ServedStore.localUrl(base);
        return served.isPresent() ? openUrl(served.get()) : openFile(base, StoreNetwork.autoServer());
    }

    /**
     * Opens the file database at {@code base} in this process; with {@code shared}, other processes on this host
     * may open it too, through H2's automatic server on loopback.
     */
    static ResultsStore openFile(Path base, boolean shared) {
        OwnerOnly.createDirectories(base.getParent());
        ResultsStore store = openUrl("jdbc:h2:file:" + base + (shared ? ";AUTO_SERVER=TRUE" : ""));
        OwnerOnly.restrict(base.resolveSibling(base.getFileName() + ".lock.db"));
        return store;
    }

    /** The absolute file name H2 is given for {@code databaseFile}: without {@code .mv.db}. */
    static Path basePath(Path databaseFile) {
        Path base = databaseFile.toAbsolutePath().normalize();
        String name = base.getFileName().toString();
        return name.endsWith(H2_SUFFIX) ? base.resolveSibling(name.substring(0, name.length() - H2_SUFFIX.length()))
                : base;
    }

    /**
     * Opens the store at an H2 JDBC URL, e.g. {@code jdbc:h2:tcp://host:port/path} or {@code jdbc:h2:mem:test}: as
     * user {@code sa} with the store's secret, from {@code $GRIDRUN_DB_SECRET} or the secret file beside the path the
     * URL names (an in-memory store has none); {@code ssl://} trusts only the store's own certificate.
     *
     * @throws StoreAccessException when the secret is missing or wrong, or the store is held where this process
     *                              cannot reach it
     */
    public static ResultsStore openUrl(String jdbcUrl) {
        Connection connection = StoreLogin.connect(jdbcUrl);
        RowLedger ledger = RowLedger.of(StoreUrl.parse(jdbcUrl)).orElse(null);
        try {
            Migrations.apply(connection, jdbcUrl);
            if (ledger != null) {
                ledger.check(connection);
            }
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection, e);
            if (e instanceof SQLException sql) {
                throw StoreDamage.onOpen(StoreUrl.parse(jdbcUrl), sql).<RuntimeException>map(damaged -> damaged)
                        .orElseGet(() -> new StoreException("cannot migrate results store " + jdbcUrl + ": "
                                + e.getMessage(), e));
            }
            throw e instanceof StoreException se ? se
                    : new StoreException("cannot migrate results store " + jdbcUrl + ": " + e.getMessage(), e);
        }
        return new ResultsStore(connection, jdbcUrl, ledger);
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
     * Reads a run directory's {@code experiment.yaml}, status history and metric spool and upserts them.
     *
     * <p>The experiment, its current run and every attempt go in one transaction; then the spool's records, from
     * where the last ingest stopped, in transactions of {@value #BATCH_ROWS} records, each with the spool mark it
     * reaches. Exactly once: ingesting again, after more records were appended, or after an ingest that stopped
     * between transactions, leaves each (metric, step) once (a step logged twice keeps its latest value; a torn last
     * spool line waits for the next ingest). A spool that no longer begins as the stored mark says (a resumed job
     * truncated it, an earlier attempt's was archived) is compared with the stored rows whole. Two processes
     * ingesting one spool at once may collide; the loser tries again from the mark the winner left. A status
     * history older than the state already stored (one {@link #recordState} wrote) does not replace it.
     *
     * @return the number of metric records read from the spool: those after the stored mark
     */
    public synchronized int ingest(RunDir dir) {
        return ingest(dir, BATCH_ROWS, batch -> { });
    }

    /** {@link #ingest(RunDir)} in batches of {@code batchRows}, calling {@code afterBatch} after each commit. */
    synchronized int ingest(RunDir dir, int batchRows, Consumer<SpoolTail.Batch> afterBatch) {
        ExperimentRecord experiment = dir.readExperiment();
        List<StatusEntry> history = dir.status().history();
        List<Attempt> attempts = Attempt.fold(history);
        inTransaction("ingest " + dir, () -> {
            writer.experiment(experiment, dir.path());
            RunRow row = RunRow.fold(history);
            if (row != null) {
                writer.run(experiment.id(), row);
            }
            writer.attempts(experiment.id(), attempts);
            return null;
        });
        int attempt = Math.max(1, attempts.size());
        for (int tries = 1; ; tries++) {
            try {
                return query("ingest the metric spool of " + dir, () -> {
                    int read = ingestSpool(dir, experiment.id(), attempt, batchRows, afterBatch);
                    if (ledger != null && read > 0) {
                        ledger.record(connection, experiment.id(), StoreReader.mark(connection, experiment.id())
                                .bytes());
                    }
                    return read;
                });
            } catch (StoreException e) {
                if (tries == INGEST_TRIES || !Contention.isTransient(e)) {
                    throw e;
                }
            }
        }
    }

    private int ingestSpool(RunDir dir, String experimentId, int attempt, int batchRows,
                            Consumer<SpoolTail.Batch> afterBatch) throws SQLException {
        SpoolTail tail = SpoolTail.read(dir.metricsFile(), StoreReader.mark(connection, experimentId));
        int[] read = {0};
        tail.forEachBatchReadingAhead(batchRows, batch -> {
            transaction(() -> {
                try {
                    writer.metrics(experimentId, attempt, batch.records(), !tail.continued());
                } catch (MetricWriter.DamagedRecord damaged) {
                    throw new BadFileException(dir.metricsFile(), null, "the record " + damaged.getMessage()
                            + ": a line was changed after it was written", "the store keeps the row it has; "
                            + "restore the spool from a copy", damaged);
                }
                writer.mark(experimentId, dir.metricsFile(), batch.end());
                return null;
            });
            read[0] += batch.records().size();
            afterBatch.accept(batch);
        });
        return read[0];
    }

    /** Every attempt of an experiment, oldest first; empty when the store has none. */
    public synchronized List<Attempt> attempts(String experimentId) {
        return query("list the attempts of " + experimentId, () -> StoreReader.attempts(connection, experimentId));
    }

    /** Each metric's record at its highest step, by metric name; empty when the experiment has none. */
    public synchronized Map<String, MetricRecord> latest(String experimentId) {
        return query("read the latest metrics of " + experimentId, () -> reader.latest(experimentId));
    }

    /**
     * Records a state the orchestrator entered before the job wrote anything (STAGED, QUEUED), with the
     * experiment itself.
     *
     * <p>{@code entry} continues the stored attempt, or starts a new one after a terminal state or on STAGED.
     */
    public synchronized void recordState(ExperimentRecord experiment, Path runDir, StatusEntry entry) {
        inTransaction("record " + entry.state() + " of " + experiment.name(), () -> {
            record(experiment, runDir, entry);
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
                record(c.experiment(), c.runDir(), c.entry());
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
     * The metric's series of each of {@code experiments} that has any records, in their order: the seeds' curves a
     * mean or a band over seeds is drawn from.
     */
    public List<List<MetricRecord>> nonEmptySeries(Collection<StoredExperiment> experiments, String metric) {
        List<List<MetricRecord>> out = new ArrayList<>();
        for (StoredExperiment e : experiments) {
            List<MetricRecord> s = series(e.id(), metric);
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
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

    /**
     * The last value of the number the experiment is judged by: its perplexity when it recorded one (a language
     * model), else its accuracy; empty when it has neither yet.
     */
    public Optional<Headline.Value> lastHeadline(String experimentId) {
        Optional<Double> perplexity = last(experimentId, Headline.PERPLEXITY.metric());
        return perplexity.isPresent() ? perplexity.map(v -> new Headline.Value(Headline.PERPLEXITY, v))
                : last(experimentId, Headline.ACCURACY.metric()).map(v -> new Headline.Value(Headline.ACCURACY, v));
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

    private void record(ExperimentRecord experiment, Path runDir, StatusEntry entry) throws SQLException {
        writer.experiment(experiment, runDir);
        RunRow stored = writer.storedRun(experiment.id());
        RunRow row = RunRow.next(stored, entry);
        writer.run(experiment.id(), row);
        List<Attempt> attempts = StoreReader.attempts(connection, experiment.id());
        Attempt current = attempts.isEmpty() || RunRow.startsAttempt(stored, entry) ? null
                : attempts.get(attempts.size() - 1);
        int number = current == null ? attempts.size() + 1 : current.number();
        writer.attempts(experiment.id(), List.of(Attempt.next(current, number, row, entry)));
    }

    private <T> T query(String what, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw StoreDamage.onQuery(url, e).<RuntimeException>map(damaged -> damaged).orElseGet(() ->
                    new StoreException("results store " + url + ": cannot " + what + ": " + e.getMessage(), e));
        }
    }

    private <T> T inTransaction(String what, SqlWork<T> work) {
        return query(what, () -> transaction(work));
    }

    private <T> T transaction(SqlWork<T> work) throws SQLException {
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
