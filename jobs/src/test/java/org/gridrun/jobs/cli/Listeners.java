package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The TCP sockets a process listens on, as {@code ss -ltnp} shows them: what other hosts could connect to. */
public final class Listeners {
    private static final Path SS = Path.of("/usr/bin/ss");

    private Listeners() {
    }

    /** Whether {@code ss} is there to ask. */
    public static boolean available() {
        return Files.isExecutable(SS) || Files.isExecutable(Path.of("/bin/ss"));
    }

    /** The local addresses ({@code host:port}) process {@code pid} listens on. */
    public static List<String> of(long pid) {
        List<String> addresses = new ArrayList<>();
        for (String line : ss()) {
            if (line.contains("pid=" + pid + ",")) {
                addresses.add(line.trim().split("\\s+")[3]);
            }
        }
        return addresses;
    }

    /** Whether a local address is on the loopback interface only. */
    public static boolean loopback(String address) {
        return address.startsWith("127.") || address.startsWith("[::ffff:127.") || address.startsWith("[::1]")
                || address.startsWith("localhost:");
    }

    private static List<String> ss() {
        try {
            Process p = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(10, TimeUnit.SECONDS);
            return out.lines().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run ss -ltnp: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }
}
