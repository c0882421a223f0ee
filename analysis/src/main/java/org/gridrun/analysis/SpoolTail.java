package org.gridrun.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.SpoolLineParser;

/**
 * The part of a metric spool that follows a {@link Mark}: what an ingest has not stored yet.
 *
 * <p>When the spool still begins with the bytes the mark covers (same length at least, same CRC-32), reading goes on
 * from the mark; otherwise, a spool that was truncated or replaced, from the start. Only lines that end in a line
 * break count: a torn last line is left for the next read. The header and blank lines are passed over but still move
 * the mark; any other complete line that is not a record means the spool is damaged, and reading stops there with
 * {@link MetricSpool#damagedLine} before the batch that holds it is handed over: a checked line whose checksum does not
 * match is such a line ({@link SpoolLineParser}), so a record damaged into another is never stored.
 */
final class SpoolTail {
    /** What the reader thread of {@link #forEachBatchReadingAhead} hands over after the last batch. */
    private static final Object END = new Object();
    /** How long the reader thread waits for room before it checks again whether the consumer stopped. */
    private static final long HAND_WAIT_MILLIS = 100;

    private final Path spool;
    private final byte[] bytes;
    private final Mark from;
    private final boolean continued;

    private SpoolTail(Path spool, byte[] bytes, Mark from, boolean continued) {
        this.spool = spool;
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
            return new SpoolTail(spool, bytes, stored, true);
        }
        return new SpoolTail(spool, bytes, Mark.START, false);
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
        SpoolLineParser parser = SpoolLineParser.forSpool(bytes);
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
            if (record == null && !headerOrBlank(at, end)) {
                throw MetricSpool.damagedLine(spool, lineNumber(at), Arrays.copyOfRange(bytes, at, end), parser);
            }
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

    /**
     * {@link #forEachBatch} with the parsing one batch ahead on a reader thread, so that parsing the next batch
     * overlaps writing this one. Batches reach {@code sink} in order, on the calling thread; when {@code sink} fails,
     * the reader stops and the failure propagates.
     */
    void forEachBatchReadingAhead(int batchRows, BatchSink sink) throws SQLException {
        BlockingQueue<Object> ready = new ArrayBlockingQueue<>(1);
        AtomicBoolean stopped = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            Object last = END;
            try {
                forEachBatch(batchRows, batch -> {
                    if (!hand(ready, batch, stopped)) {
                        throw new CancellationException();
                    }
                });
            } catch (CancellationException e) {
                return;
            } catch (SQLException e) {
                last = new StoreException("cannot read the metric spool: " + e.getMessage(), e);
            } catch (RuntimeException e) {
                last = e;
            }
            hand(ready, last, stopped);
        }, "spool-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            for (Object next = take(ready); next != END; next = take(ready)) {
                if (next instanceof RuntimeException e) {
                    throw e;
                }
                sink.accept((Batch) next);
            }
        } finally {
            stopped.set(true);
            ready.clear();
        }
    }

    /** Puts {@code item} in the queue, unless the consumer stops first; whether it was put. */
    private static boolean hand(BlockingQueue<Object> queue, Object item, AtomicBoolean stopped) {
        try {
            while (!stopped.get()) {
                if (queue.offer(item, HAND_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Object take(BlockingQueue<Object> queue) {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while ingesting a metric spool", e);
        }
    }

    private boolean headerOrBlank(int from, int to) {
        return to == from || to == from + 1 && bytes[from] == '\r' || SpoolLineParser.isHeader(bytes, from, to);
    }

    /** The line, from 1, that starts at byte {@code at}. */
    private long lineNumber(int at) {
        long line = 1;
        for (int i = 0; i < at; i++) {
            line += bytes[i] == '\n' ? 1 : 0;
        }
        return line;
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
