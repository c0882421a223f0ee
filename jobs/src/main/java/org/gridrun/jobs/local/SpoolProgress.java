package org.gridrun.jobs.local;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.SpoolLineParser;

/**
 * Reads how far a running job is from the tail of its metric spool, without reading the whole file.
 */
final class SpoolProgress {
    private static final int TAIL_BYTES = 4096;

    private SpoolProgress() {
    }

    /**
     * The step of the spool's last complete line when that line is a record (checked lines verified, as ingest
     * reads them), else 0: no spool yet, only its header, or a last line damaged or longer than the tail read.
     */
    static long lastStep(Path spool) {
        try (RandomAccessFile file = new RandomAccessFile(spool.toFile(), "r")) {
            long length = file.length();
            int size = (int) Math.min(length, TAIL_BYTES);
            byte[] tail = new byte[size];
            file.seek(length - size);
            file.readFully(tail);
            int end = lastIndexOf(tail, size);
            if (end < 0) {
                return 0;
            }
            int start = lastIndexOf(tail, end) + 1;
            if (start == 0 && size < length) {
                return 0;
            }
            MetricRecord record = new SpoolLineParser(false).parse(tail, start, end);
            return record == null ? 0 : record.step();
        } catch (IOException e) {
            return 0;
        }
    }

    /** The position of the last line break in {@code bytes[0, before)}, or −1. */
    private static int lastIndexOf(byte[] bytes, int before) {
        for (int i = before - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
