package org.gridrun.jobs.local;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads how far a running job is from the tail of its metric spool, without reading the whole file.
 */
final class SpoolProgress {
    private static final int TAIL_BYTES = 4096;

    private SpoolProgress() {
    }

    /** The step of the last complete record in {@code spool}, or 0 when there is none yet. */
    static long lastStep(Path spool) {
        try (RandomAccessFile file = new RandomAccessFile(spool.toFile(), "r")) {
            long length = file.length();
            int size = (int) Math.min(length, TAIL_BYTES);
            byte[] tail = new byte[size];
            file.seek(length - size);
            file.readFully(tail);
            String text = new String(tail, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            if (end < 0) {
                return 0;
            }
            int start = text.lastIndexOf('\n', end - 1) + 1;
            String[] parts = text.substring(start, end).split(",");
            return parts.length == 4 ? Long.parseLong(parts[1]) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
