package org.gridrun.engine.run;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The metric spool of a run directory: an append-only CSV file {@code name,step,value,wall_ms}.
 *
 * <p>A job always writes here, whether or not a database is reachable; the store ingests the spool later. The
 * writer flushes on {@link Writer#flush()} and on close, so a killed job loses at most its unflushed tail, and the
 * reader skips a torn last line instead of failing. A job that resumes from a checkpoint first
 * {@link #truncateAfter truncates} the spool to the checkpoint's step, so no (name, step) is recorded twice.
 */
public final class MetricSpool {
    /** The header line of every spool file. */
    public static final String HEADER = "name,step,value,wall_ms";

    private MetricSpool() {
    }

    /** Opens {@code file} for appending, writing the header when the file is new or empty. */
    public static Writer append(Path file) {
        try {
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
            if (fresh) {
                out.write(HEADER);
                out.write('\n');
            }
            return new Writer(out, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open metric spool " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads every complete record of {@code file}; an absent file has none, and lines that are not records none. */
    public static List<MetricRecord> read(Path file) {
        List<MetricRecord> records = new ArrayList<>();
        if (!Files.exists(file)) {
            return records;
        }
        for (String line : lines(file)) {
            MetricRecord record = parse(line);
            if (record != null) {
                records.add(record);
            }
        }
        return records;
    }

    /**
     * Keeps the records of steps up to {@code step} and drops later ones, a torn last line and blank lines, replacing
     * the file atomically: a run resumed from a checkpoint at {@code step} writes those later steps again. An absent
     * file stays absent; a file with nothing to drop is left as it is. A complete line that is not a record (a
     * damaged spool) fails with {@link #damagedLine} and leaves the file as it is.
     *
     * @return the number of lines dropped
     */
    public static int truncateAfter(Path file, long step) {
        if (!Files.exists(file)) {
            return 0;
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
            boolean torn = bytes.length > 0 && bytes[bytes.length - 1] != '\n';
            List<String> kept = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                MetricRecord record = parse(line);
                if (record == null && !line.isBlank() && !line.equals(HEADER) && !(torn && i == lines.size() - 1)) {
                    throw damagedLine(file, i + 1, line.getBytes(StandardCharsets.UTF_8));
                }
                if (line.equals(HEADER) || record != null && record.step() <= step) {
                    kept.add(line);
                }
            }
            if (kept.size() < lines.size()) {
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                Files.write(tmp, kept, StandardCharsets.UTF_8);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return lines.size() - kept.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate metric spool " + file + " after step " + step + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The failure for a complete spool line that is not a record: a damaged spool, which neither the store nor a
     * resumed run reads on from. Rows already in the store stay as they are.
     *
     * @param lineNumber the line, from 1
     * @param line       its bytes, without the line break
     */
    public static BadFileException damagedLine(Path file, long lineNumber, byte[] line) {
        return new BadFileException(file, "line " + lineNumber, "expected a record " + HEADER + ", found "
                + BadFileException.excerpt(line, 0, 60), "the spool is damaged and is read no further (rows the "
                + "store holds stay); restore it, or delete the line");
    }

    /** The lines of {@code file}, bytes that are not UTF-8 replaced, so that they fail to parse rather than throw. */
    private static List<String> lines(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read metric spool " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses one spool line; the header, a blank line and a torn line give {@code null}. */
    static MetricRecord parse(String line) {
        String[] parts = line.split(",", -1);
        if (parts.length != 4 || line.equals(HEADER)) {
            return null;
        }
        try {
            return new MetricRecord(parts[0], Long.parseLong(parts[1]), Double.parseDouble(parts[2]),
                    Long.parseLong(parts[3]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Appends records to one spool file. Not thread-safe: one writer per job. */
    public static final class Writer implements Closeable {
        private final BufferedWriter out;
        private final Path file;

        private Writer(BufferedWriter out, Path file) {
            this.out = out;
            this.file = file;
        }

        /** Appends one record. */
        public void write(MetricRecord record) {
            write(record.name(), record.step(), record.value(), record.wallMillis());
        }

        /** Appends one record measured now. */
        public void write(String name, long step, double value) {
            write(name, step, value, System.currentTimeMillis());
        }

        private void write(String name, long step, double value, long wallMillis) {
            if (name.indexOf(',') >= 0 || name.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("metric name must not contain ',' or a line break, found '"
                        + name + "'");
            }
            try {
                out.write(name + "," + step + "," + value + "," + wallMillis + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write metric spool " + file + ": " + e.getMessage(), e);
            }
        }

        /** Pushes buffered records to the file. */
        public void flush() {
            try {
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot flush metric spool " + file + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            try {
                out.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close metric spool " + file + ": " + e.getMessage(), e);
            }
        }
    }
}
