package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreConcurrencyTest {
    private static final int JOBS = 32;
    private static final int RECORDS = 2_000;

    @TempDir
    Path tmp;

    @Test
    void thirtyTwoJobProcessesWritingThroughATcpServerLoseNoRow() throws Exception {
        try (StoreServer server = StoreServer.tcp(tmp.resolve("db/gridrun"), 0, false)) {
            List<Process> jobs = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                jobs.add(new ProcessBuilder(javaCommand(server.url(), i)).redirectErrorStream(true)
                        .redirectOutput(tmp.resolve("job" + i + ".out").toFile()).start());
            }
            for (int i = 0; i < JOBS; i++) {
                Process job = jobs.get(i);
                if (!job.waitFor(120, TimeUnit.SECONDS)) {
                    job.destroyForcibly();
                }
                assertEquals(0, job.exitValue(), () -> "job output: " + read(tmp.resolve("job" + jobs.indexOf(job)
                        + ".out")));
            }
            assertEquals((long) JOBS * RECORDS, StoreTables.scalar(server.url(), "SELECT COUNT(*) FROM metrics"));
            assertEquals(JOBS, StoreTables.scalar(server.url(), "SELECT COUNT(*) FROM attempts "
                    + "WHERE state = 'COMPLETED' AND exit_code = 0"));
            assertEquals(JOBS, StoreTables.scalar(server.url(), "SELECT COUNT(*) FROM latest "
                    + "WHERE step = " + (RECORDS - 1)));
        }
    }

    private List<String> javaCommand(String url, int index) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx96m", "-da:org.h2...",
                "-cp", System.getProperty("java.class.path") + File.pathSeparator + testClasses(),
                ConcurrentJob.class.getName(), url, tmp.resolve("runs").toString(), String.valueOf(index),
                String.valueOf(RECORDS));
    }

    private static String testClasses() {
        return Path.of(ConcurrentJob.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .toString();
    }

    private static String read(Path file) {
        try {
            return java.nio.file.Files.readString(file);
        } catch (java.io.IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
