package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Device time per kernel, for finding where a step or a codec spends it on a real GPU: with
 * {@code GRIDRUN_CUDA_PROFILE=1} in the environment, {@link JCudaGpu} times every kernel it launches on the stream
 * between two CUDA events (waiting for each, so the run is slower and only the table is worth reading) and prints this
 * table to stderr when it closes. Kernels inside a replayed CUDA graph are not launched one by one and are not
 * timed: profile with {@code cuda_graph: false} ({@code bench train --no-cuda-graph}).
 */
final class KernelProfile {
    /** The environment variable that turns profiling on. */
    static final String VARIABLE = "GRIDRUN_CUDA_PROFILE";

    private static final class Times {
        long calls;
        double milliseconds;
        double longest;
    }

    private final Map<String, Times> kernels = new HashMap<>();

    /** A profile when {@code value} (the environment variable's) asks for one, else null. */
    static KernelProfile fromEnvironment(String value) {
        return "1".equals(value) || "true".equalsIgnoreCase(value) ? new KernelProfile() : null;
    }

    /** Records one launch of {@code kernel} that took {@code milliseconds} on the device. */
    void add(String kernel, double milliseconds) {
        Times t = kernels.computeIfAbsent(kernel, k -> new Times());
        t.calls++;
        t.milliseconds += milliseconds;
        t.longest = Math.max(t.longest, milliseconds);
    }

    boolean isEmpty() {
        return kernels.isEmpty();
    }

    /**
     * The table, kernels by total time, the largest first: calls, total ms, share of all kernels' time, mean and
     * longest µs a call, under a line naming {@code device}.
     */
    String table(String device) {
        List<Map.Entry<String, Times>> rows = new ArrayList<>(kernels.entrySet());
        rows.sort((a, b) -> a.getValue().milliseconds != b.getValue().milliseconds
                ? Double.compare(b.getValue().milliseconds, a.getValue().milliseconds)
                : a.getKey().compareTo(b.getKey()));
        double all = 0;
        int width = "kernel".length();
        for (Map.Entry<String, Times> r : rows) {
            all += r.getValue().milliseconds;
            width = Math.max(width, r.getKey().length());
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "kernel times on %s (%s=1; each launch timed by two events and waited for)%n", device, VARIABLE));
        String format = "%-" + width + "s %9s %11s %7s %10s %10s%n";
        out.append(String.format(Locale.ROOT, format, "kernel", "calls", "total ms", "share", "mean us", "max us"));
        for (Map.Entry<String, Times> r : rows) {
            Times t = r.getValue();
            out.append(String.format(Locale.ROOT, "%-" + width + "s %9d %11.3f %6.1f%% %10.2f %10.2f%n", r.getKey(),
                    t.calls, t.milliseconds, all > 0 ? 100 * t.milliseconds / all : 0, 1000 * t.milliseconds / t.calls,
                    1000 * t.longest));
        }
        out.append(String.format(Locale.ROOT, "%-" + width + "s %9s %11.3f%n", "all kernels", "", all));
        return out.toString();
    }
}
