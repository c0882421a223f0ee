package org.gridrun.jobs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.gridrun.engine.run.RunDir;

/**
 * The lock a trainer holds on its run directory ({@value #FILE}) while it runs, so that one experiment is never
 * trained by two processes.
 *
 * <p>Its status file cannot promise that alone: a grid-run killed while its trainer was starting leaves the
 * experiment QUEUED by a dead parent, the next grid-run marks it KILLED and starts it again, and the orphan starts
 * too. The lock settles it: the second trainer to start finds it held and exits {@value #HELD_EXIT} without
 * touching the directory, and the {@link Reconciler} leaves alone an experiment whose lock is held. The operating
 * system releases the lock when the process ends, however it ends. On a file system without locks every trainer
 * runs, as before.
 */
public final class TrainerLock implements AutoCloseable {
    /** The lock file in a run directory. */
    public static final String FILE = ".trainer.lock";
    /** The exit code of a trainer that found its run directory held by another: EX_CANTCREAT of sysexits.h. */
    public static final int HELD_EXIT = 73;

    /** Lock files this JVM holds: asking the system about them would release them (POSIX locks are per process). */
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;

    private TrainerLock(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /**
     * Takes the lock of {@code dir}: empty when another process (or another trainer in this JVM) holds it; a lock
     * that holds nothing when the file system has no locks.
     */
    public static Optional<TrainerLock> tryAcquire(RunDir dir) {
        Path file = dir.path().resolve(FILE).toAbsolutePath().normalize();
        if (!HELD_HERE.add(file)) {
            return Optional.empty();
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                HELD_HERE.remove(file);
                return Optional.empty();
            }
            return Optional.of(new TrainerLock(file, channel));
        } catch (IOException | OverlappingFileLockException noLocks) {
            closeQuietly(channel);
            HELD_HERE.remove(file);
            return Optional.of(new TrainerLock(file, null));
        }
    }

    /** Whether a trainer holds the lock of {@code dir} now; false when none does or the file system cannot tell. */
    public static boolean held(RunDir dir) {
        Path file = dir.path().resolve(FILE).toAbsolutePath().normalize();
        if (HELD_HERE.contains(file)) {
            return true;
        }
        if (!dir.path().resolve(FILE).toFile().exists()) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (IOException | OverlappingFileLockException cannotTell) {
            return false;
        }
    }

    @Override
    public void close() {
        closeQuietly(channel);
        HELD_HERE.remove(file);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the process is ending or the lock was never taken; the system releases it either way
            }
        }
    }
}
