package org.gridrun.reports;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The last lines of a run's log, read from the end of the file so that a log of gigabytes costs no more than a
 * small one. Used by the experiment pages and by {@code grid-run status}.
 */
public final class LogTail {
    /** How many lines an experiment page shows. */
    static final int LINES = 50;
    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {
    }

    /** The last {@code lines} lines of {@code file} (at most its last 64 KiB); empty when it does not exist. */
    public static List<String> read(Path file, int lines) {
        if (file == null || !Files.isRegularFile(file)) {
            return List.of();
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            int size = (int) Math.min(length, MAX_BYTES);
            byte[] bytes = new byte[size];
            in.seek(length - size);
            in.readFully(bytes);
            List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\r?\n", -1));
            if (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
                all = all.subList(0, all.size() - 1);
            }
            if (size < length && !all.isEmpty()) {
                all = all.subList(1, all.size());
            }
            return List.copyOf(all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return List.of("(cannot read " + file + ": " + e.getMessage() + ")");
        }
    }
}
