package org.gridrun.engine.run;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The metric spool of a run directory: an append-only CSV file {@code name,step,value,wall_ms,crc32}, each line
 * carrying the CRC-32 of its fields so that a line damaged on disk is told from a record ({@link SpoolLineParser});
 * spools written before the checksum ({@link #UNCHECKED_HEADER}) are still read.
 *
 * <p>A job always writes here, whether or not a database is reachable; the store ingests the spool later. The
 * writer flushes on {@link Writer#flush()} and on close, so a killed job loses at most its unflushed tail, and the
 * reader skips a torn last line instead of failing. A job that resumes from a checkpoint first
 * {@link #truncateAfter truncates} the spool to the checkpoint's step, so no (name, step) is recorded twice.
 */
public final class MetricSpool {
    /** The header line of every spool file this code starts. */
    public static final String HEADER = "name,step,value,wall_ms,crc32";
    /** The header line of spools written before lines carried a checksum. */
    public static final String UNCHECKED_HEADER = "name,step,value,wall_ms";

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
        byte[] bytes = bytes(file, "read");
        SpoolLineParser parser = SpoolLineParser.forSpool(bytes);
        for (int at = 0, end; at < bytes.length; at = end + 1) {
            end = lineEnd(bytes, at);
            MetricRecord record = parser.parse(bytes, at, end);
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
        byte[] bytes = bytes(file, "truncate");
        SpoolLineParser parser = SpoolLineParser.forSpool(bytes);
        ByteArrayOutputStream kept = new ByteArrayOutputStream(bytes.length);
        int lines = 0;
        int dropped = 0;
        for (int at = 0, end; at < bytes.length; at = end + 1, lines++) {
            end = lineEnd(bytes, at);
            MetricRecord record = parser.parse(bytes, at, end);
            boolean header = SpoolLineParser.isHeader(bytes, at, end);
            if (record == null && !header && end > at && end < bytes.length) {
                throw damagedLine(file, lines + 1, Arrays.copyOfRange(bytes, at, end), parser);
            }
            if (header || record != null && record.step() <= step) {
                kept.write(bytes, at, end - at);
                kept.write('\n');
            } else {
                dropped++;
            }
        }
        if (dropped > 0) {
            try {
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                Files.write(tmp, kept.toByteArray());
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot truncate metric spool " + file + " after step " + step + ": "
                        + e.getMessage(), e);
            }
        }
        return dropped;
    }

    /**
     * The failure for a complete spool line that {@code parser} finds no record in: a damaged spool, which neither
     * the store nor a resumed run reads on from. Rows already in the store stay as they are.
     *
     * @param lineNumber the line, from 1
     * @param line       its bytes, without the line break
     */
    public static BadFileException damagedLine(Path file, long lineNumber, byte[] line, SpoolLineParser parser) {
        return new BadFileException(file, "line " + lineNumber, "expected " + parser.expected() + ", found "
                + BadFileException.excerpt(line, 0, 60), "the spool is damaged and is read no further (rows the "
                + "store holds stay); restore it, or delete the line");
    }

    private static byte[] bytes(Path file, String what) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot " + what + " metric spool " + file + ": " + e.getMessage(), e);
        }
    }

    /** Where the line that starts at {@code from} ends: its line break, or the end of a torn last line. */
    private static int lineEnd(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return bytes.length;
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
                out.write(SpoolLineParser.line(name, step, value, wallMillis));
                out.write('\n');
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
