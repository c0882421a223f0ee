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
 * readable line. A torn last line (a process killed mid-write) is ignored rather than failing the reader.
 */
public final class StatusFile {
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
            Files.writeString(file, entry.toLine() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return entry;
    }

    /**
     * Every readable transition, oldest first; empty when the file does not exist. A line that is not one (torn by
     * a crash, damaged, not UTF-8) is passed over: the state is the last readable line's.
     */
    public List<StatusEntry> history() {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<StatusEntry> entries = new ArrayList<>();
        try {
            for (String line : new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList()) {
                StatusEntry entry = StatusEntry.parse(line);
                if (entry != null) {
                    entries.add(entry);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return entries;
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
