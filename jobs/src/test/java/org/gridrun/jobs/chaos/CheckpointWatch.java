package org.gridrun.jobs.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.train.TrainJob;

/**
 * Watches the checkpoints of a run's experiments from outside, the chaos test's oracle for "trained twice past a
 * checkpoint": every few milliseconds it reads each checkpoint that changed and notes its step with the time it
 * was seen, taken after the read, so a step noted at time t was on disk at t.
 */
final class CheckpointWatch implements AutoCloseable {
    private static final long POLL_MILLIS = 20;

    private final Path runDirs;
    private final Map<Path, List<Seen>> seen = new ConcurrentHashMap<>();
    private final Map<Path, FileTime> modified = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    private CheckpointWatch(Path runDirs) {
        this.runDirs = runDirs;
        this.thread = new Thread(this::watch, "checkpoint watch");
        thread.setDaemon(true);
    }

    /** Starts watching the run directories under {@code runDirs}. */
    static CheckpointWatch start(Path runDirs) {
        CheckpointWatch watch = new CheckpointWatch(runDirs);
        watch.thread.start();
        return watch;
    }

    /** The highest checkpoint step of {@code dir} seen on disk before {@code time}; 0 when none was. */
    long highestBefore(RunDir dir, Instant time) {
        return seen.getOrDefault(dir.path(), List.of()).stream().filter(s -> s.time.isBefore(time))
                .mapToLong(s -> s.step).max().orElse(0);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }

    private void watch() {
        while (running) {
            if (Files.isDirectory(runDirs)) {
                try (Stream<Path> dirs = Files.list(runDirs)) {
                    dirs.forEach(this::look);
                } catch (IOException | RuntimeException e) {
                    // a directory that moves while listed is looked at next time
                }
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void look(Path dir) {
        RunDir run = RunDir.at(dir);
        try {
            FileTime time = Files.getLastModifiedTime(run.checkpointFile());
            if (time.equals(modified.put(dir, time))) {
                return;
            }
            OptionalLong step = TrainJob.checkpointStep(run);
            Instant now = Instant.now();
            step.ifPresent(s -> seen.computeIfAbsent(run.path(), d -> new ArrayList<>()).add(new Seen(s, now)));
        } catch (IOException | RuntimeException notYet) {
            modified.remove(dir);
        }
    }

    private record Seen(long step, Instant time) {
    }
}
