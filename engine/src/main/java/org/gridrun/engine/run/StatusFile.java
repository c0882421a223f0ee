package org.gridrun.engine.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The append-only state history of one run directory.
 *
 * <p>Each transition is one appended line, so the history survives a crash and the current state is the last
 * readable line. A torn last line (a process killed mid-write) is ignored rather than failing the reader; a damaged
 * line (each carries a checksum, {@link StatusEntry}) is passed over with a warning naming the file and line.
 */
public final class StatusFile {
    /**
     * The first line of every status file this code starts: its lines all carry their checksum. A file without it
     * was started by an older gridrun; its lines without a checksum are read up to the first line with one.
     */
    public static final String HEADER = "# state\ttime\thost\tjob\tdetail\tcrc32";

    private final Path file;

    StatusFile(Path file) {
        this.file = file;
    }

    /** Appends a transition to {@code state} now, on this host. */
    public StatusEntry append(RunState state, String detail) {
        return append(state, "", detail);
    }

    /** Appends a transition to {@code state} now, on this host, carried by the scheduler job {@code job}. */
    public StatusEntry append(RunState state, String job, String detail) {
        StatusEntry entry = new StatusEntry(state, Instant.now(), hostName(), job == null ? "" : job,
                detail == null ? "" : detail);
        try {
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            Files.writeString(file, (fresh ? HEADER + "\n" : "") + entry.toLine() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return entry;
    }

    /**
     * Every readable transition, oldest first; empty when the file does not exist. A torn last line (a process killed
     * mid-write) is passed over; so is a complete line that is not a transition (damaged: its checksum does not
     * match, it lacks one in a file that begins with {@link #HEADER} or after a line that had one, it is not UTF-8),
     * and a warning naming the file and line goes to {@link FileWarnings}. The state is then the last
     * readable line's, never a damaged line's.
     */
    public List<StatusEntry> history() {
        if (!Files.exists(file)) {
            return List.of();
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<StatusEntry> entries = new ArrayList<>();
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
        boolean torn = bytes.length > 0 && bytes[bytes.length - 1] != '\n';
        boolean checked = !lines.isEmpty() && lines.get(0).equals(HEADER);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals(HEADER)) {
                continue;
            }
            StatusEntry entry = StatusEntry.parse(lines.get(i), checked);
            if (entry != null) {
                entries.add(entry);
                checked |= StatusEntry.hasChecksum(lines.get(i));
            } else if (!(torn && i == lines.size() - 1)) {
                warn(i + 1, lines.get(i));
            }
        }
        return entries;
    }

    private void warn(int line, String text) {
        String message = BadFileException.message(file, String.valueOf(line), "damaged status line "
                + BadFileException.excerpt(text.getBytes(StandardCharsets.UTF_8), 0, 60) + " passed over (expected "
                + "STATE, time, host, job, detail and their checksum, tab separated)", "the state is read from the "
                + "other lines; restore the file from a copy, or delete the line");
        FileWarnings.warn(message);
    }

    /** The latest transition, if any. */
    public Optional<StatusEntry> current() {
        List<StatusEntry> entries = history();
        return entries.isEmpty() ? Optional.empty() : Optional.of(entries.get(entries.size() - 1));
    }

    /** The current state, or {@code null} when nothing was recorded yet. */
    public RunState state() {
        return current().map(StatusEntry::state).orElse(null);
    }

    /** The host name, or {@code "localhost"} when it cannot be resolved. */
    public static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
