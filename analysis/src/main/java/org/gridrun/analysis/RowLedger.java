package org.gridrun.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.FileWarnings;

/**
 * A witness, kept outside a file store, of how much each experiment had stored: {@code .<name>-rows} beside the
 * store, one appended line {@code experiment id, spool bytes ingested, metric records} after each ingest that stored
 * records (the last line of an experiment counts).
 *
 * <p>H2 opens a store whose latest writes are damaged at an older, consistent state without a word; rows written in
 * the same transaction as a count would be lost with it, so the witness is a file of its own. On opening, an
 * experiment whose stored spool mark fell below the witness's is counted again, and one that holds fewer records than
 * the witness says is named in a {@link FileWarnings warning}: the store, the experiment, records expected against
 * found, and how to get them back (the run directories keep their spools, so an ingest stores them again). A store
 * from before the witness gets one on its first open, from its own counts. Only gridrun appends to the file; lines
 * it cannot read are passed over, and an open that finds it grown well past a line per experiment rewrites it with
 * the last line of each.
 */
final class RowLedger {
    private static final String HEADER = "# experiment id\tspool bytes ingested\tmetric records (the last line counts)";
    /** Lines beyond two per experiment, plus this many, make an open rewrite the file with the last of each. */
    static final int COMPACT_SLACK = 1000;
    private static final String COUNT = "SELECT SUM(CARDINALITY(b.steps)) FROM metric_blocks b "
            + "JOIN metric_series s ON s.series_id = b.series_id WHERE s.experiment_id = ?";

    private final Path file;
    private final Path store;

    private RowLedger(Path file, Path store) {
        this.file = file;
        this.store = store;
    }

    /** The witness of the file store {@code url}; empty for a store in memory or behind a server. */
    static Optional<RowLedger> of(StoreUrl url) {
        if (url.kind() != StoreUrl.Kind.FILE || url.base() == null) {
            return Optional.empty();
        }
        Path base = url.base();
        return Optional.of(new RowLedger(base.resolveSibling("." + base.getFileName() + "-rows"),
                StoreLogin.dataFile(base)));
    }

    /** Warns of each experiment that holds fewer records than the witness says; starts the witness when absent. */
    void check(Connection connection) throws SQLException {
        if (!Files.exists(file)) {
            start(connection);
            return;
        }
        List<String> lines = lines();
        Map<String, long[]> witnessed = witnessed(lines);
        if (lines.size() > 2 * witnessed.size() + COMPACT_SLACK) {
            compact(witnessed);
        }
        Map<String, Long> marks = marks(connection);
        List<String> lost = new ArrayList<>();
        for (Map.Entry<String, long[]> e : witnessed.entrySet()) {
            long[] was = e.getValue();
            if (marks.getOrDefault(e.getKey(), 0L) < was[0]) {
                long found = records(connection, e.getKey());
                if (found < was[1]) {
                    lost.add(String.format(Locale.ROOT, "experiment %s holds %d metric records where %d were stored",
                            e.getKey(), found, was[1]));
                }
            }
        }
        if (!lost.isEmpty()) {
            FileWarnings.warn(BadFileException.message(store, null, "rows lost: " + String.join(", ",
                    lost.subList(0, Math.min(3, lost.size()))) + (lost.size() > 3 ? " and " + (lost.size() - 3)
                    + " more experiments" : "") + " (as " + file.getFileName() + " beside it records); H2 opened "
                    + "the store at an older state, as it does when the file's last writes are damaged", "grid-run "
                    + "report --grid GRID (or status) ingests them again from the spools the run directories keep; "
                    + "or restore the store from a copy; if the store was replaced on purpose, delete " + file));
        }
    }

    /** Records that the experiment's spool is stored up to {@code spoolBytes}, with its records counted now. */
    void record(Connection connection, String experimentId, long spoolBytes) throws SQLException {
        append(experimentId + "\t" + spoolBytes + "\t" + records(connection, experimentId) + "\n");
    }

    private void start(Connection connection) throws SQLException {
        StringBuilder lines = new StringBuilder(HEADER).append('\n');
        for (Map.Entry<String, Long> mark : marks(connection).entrySet()) {
            lines.append(mark.getKey()).append('\t').append(mark.getValue()).append('\t')
                    .append(records(connection, mark.getKey())).append('\n');
        }
        try {
            OwnerOnly.createFile(file, lines.toString());
        } catch (FileAlreadyExistsException anotherProcessStartedIt) {
            // its lines are as good as ours
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + file + ": " + e.getMessage(), e);
        }
    }

    private void append(String line) {
        try {
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
            OwnerOnly.restrict(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The witnessed (spool bytes, records) of each experiment, its last readable line's. */
    private static Map<String, long[]> witnessed(List<String> lines) {
        Map<String, long[]> witnessed = new LinkedHashMap<>();
        for (String line : lines) {
            String[] parts = line.split("\t");
            if (parts.length == 3 && !line.startsWith("#")) {
                try {
                    witnessed.put(parts[0], new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])});
                } catch (NumberFormatException unreadable) {
                    // passed over: the witness only ever warns
                }
            }
        }
        return witnessed;
    }

    /**
     * Rewrites the file with one line per experiment, its last. A line another process appends meanwhile may be
     * lost; the witness then says less than was stored, which can hide a loss but never invent one.
     */
    private void compact(Map<String, long[]> witnessed) {
        StringBuilder lines = new StringBuilder(HEADER).append('\n');
        witnessed.forEach((id, w) -> lines.append(id).append('\t').append(w[0]).append('\t').append(w[1])
                .append('\n'));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, lines, StandardCharsets.ISO_8859_1);
            OwnerOnly.restrict(tmp);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact " + file + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Long> marks(Connection connection) throws SQLException {
        Map<String, Long> marks = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT experiment_id, bytes FROM spool_marks");
             ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                marks.put(rs.getString(1), rs.getLong(2));
            }
        }
        return marks;
    }

    private static long records(Connection connection, String experimentId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(COUNT)) {
            query.setString(1, experimentId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
