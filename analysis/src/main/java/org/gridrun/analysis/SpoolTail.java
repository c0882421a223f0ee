package org.gridrun.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.gridrun.engine.run.MetricRecord;

/**
 * The part of a metric spool that follows a {@link Mark}: what an ingest has not stored yet.
 *
 * <p>When the spool still begins with the bytes the mark covers (same length at least, same CRC-32), reading goes on
 * from the mark; otherwise, a spool that was truncated or replaced, from the start. Only lines that end in a line
 * break count: a torn last line is left for the next read. Lines that are not records (the header, a blank line)
 * are passed over but still move the mark.
 */
final class SpoolTail {
    private final byte[] bytes;
    private final Mark from;
    private final boolean continued;

    private SpoolTail(byte[] bytes, Mark from, boolean continued) {
        this.bytes = bytes;
        this.from = from;
        this.continued = continued;
    }

    /** How much of a spool is stored: its first {@code bytes} bytes, whose CRC-32 is {@code crc}. */
    record Mark(long bytes, long crc) {
        static final Mark START = new Mark(0, 0);
    }

    /** Some records of the spool, and the mark just after the last line they were read from. */
    record Batch(List<MetricRecord> records, Mark end) {
    }

    /** What {@link #forEachBatch} hands the batches to; it may write to the store. */
    @FunctionalInterface
    interface BatchSink {
        void accept(Batch batch) throws SQLException;
    }

    /** Reads {@code spool} (absent: empty) and finds where its unstored part begins, given the stored mark. */
    static SpoolTail read(Path spool, Mark stored) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(spool);
        } catch (NoSuchFileException e) {
            bytes = new byte[0];
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read metric spool " + spool + ": " + e.getMessage(), e);
        }
        if (stored.bytes() > 0 && stored.bytes() <= bytes.length && crc(bytes, stored.bytes()) == stored.crc()) {
            return new SpoolTail(bytes, stored, true);
        }
        return new SpoolTail(bytes, Mark.START, false);
    }

    /** Whether reading goes on from the stored mark, rather than from the start of a changed spool. */
    boolean continued() {
        return continued;
    }

    /**
     * Hands the unstored records to {@code sink} in batches of at most {@code batchRows}, in spool order; the last
     * batch may hold none, when only non-record lines are left. Nothing is handed over when no complete line is new.
     */
    void forEachBatch(int batchRows, BatchSink sink) throws SQLException {
        CRC32 crc = new CRC32();
        SpoolLineParser parser = new SpoolLineParser();
        int at = (int) from.bytes();
        crc.update(bytes, 0, at);
        List<MetricRecord> batch = new ArrayList<>(Math.min(batchRows, 1 << 16));
        boolean pending = false;
        while (true) {
            int end = lineEnd(at);
            if (end < 0) {
                break;
            }
            MetricRecord record = parser.parse(bytes, at, end);
            crc.update(bytes, at, end + 1 - at);
            at = end + 1;
            pending = true;
            if (record != null) {
                batch.add(record);
            }
            if (batch.size() == batchRows) {
                sink.accept(new Batch(batch, new Mark(at, crc.getValue())));
                batch = new ArrayList<>(Math.min(batchRows, 1 << 16));
                pending = false;
            }
        }
        if (pending) {
            sink.accept(new Batch(batch, new Mark(at, crc.getValue())));
        }
    }

    private int lineEnd(int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static long crc(byte[] bytes, long length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, (int) length);
        return crc.getValue();
    }
}
