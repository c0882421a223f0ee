package org.gridrun.analysis;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;
import org.gridrun.engine.run.StatusFile;

/**
 * The note by which {@code grid-run db serve} tells the other gridrun commands on its host that it holds a store,
 * and where they reach it: {@code .<name>-server} beside the store, owner-only, removed when the server stops.
 *
 * <p>A served store is held by the server's process alone, so that nothing but the server listens for it; commands
 * on the same host read this note and connect through the server's loopback address. A note left by a server that
 * died (its process is gone) is removed by the next command that finds it.
 */
final class ServedStore {
    private ServedStore() {
    }

    /** The note of the store whose base path is {@code base}. */
    static Path file(Path base) {
        return base.resolveSibling("." + base.getFileName() + "-server");
    }

    /** Tells commands on this host that this process serves the store at {@code localUrl}. */
    static void announce(Path base, String localUrl) {
        Properties note = new Properties();
        note.setProperty("url", localUrl);
        note.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        note.setProperty("host", StatusFile.hostName());
        Path file = file(base);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            StringWriter text = new StringWriter();
            note.store(text, "grid-run db serve holds this store; removed when it stops");
            Files.deleteIfExists(tmp);
            OwnerOnly.createFile(tmp, text.toString());
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Removes the note when this process wrote it. */
    static void withdraw(Path base) {
        read(base).filter(note -> String.valueOf(ProcessHandle.current().pid()).equals(note.getProperty("pid")))
                .ifPresent(note -> delete(file(base)));
    }

    /**
     * The URL through which this host reaches the store, when a live server on this host holds it; a note whose
     * process is gone is removed.
     */
    static Optional<String> localUrl(Path base) {
        Optional<Properties> note = read(base);
        if (note.isEmpty() || !StatusFile.hostName().equals(note.get().getProperty("host"))) {
            return Optional.empty();
        }
        boolean alive = parsePid(note.get().getProperty("pid"))
                .flatMap(ProcessHandle::of).map(ProcessHandle::isAlive).orElse(false);
        if (!alive) {
            delete(file(base));
            return Optional.empty();
        }
        return Optional.ofNullable(note.get().getProperty("url"));
    }

    private static Optional<Properties> read(Path base) {
        Properties note = new Properties();
        try (Reader in = Files.newBufferedReader(file(base))) {
            note.load(in);
            return Optional.of(note);
        } catch (IOException | IllegalArgumentException absentOrUnreadable) {
            return Optional.empty();
        }
    }

    private static Optional<Long> parsePid(String pid) {
        try {
            return pid == null ? Optional.empty() : Optional.of(Long.parseLong(pid));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // the next command tries again
        }
    }
}
