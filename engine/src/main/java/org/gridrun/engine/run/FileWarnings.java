package org.gridrun.engine.run;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Where warnings about damaged files that gridrun reads on from go: a status line passed over, a results store that
 * lost rows. Each warning reaches the sink once per process (commands read a status file many times), as
 * {@code warning: MESSAGE}; the sink is standard error unless a caller, such as a test, sets another.
 */
public final class FileWarnings {
    private static final AtomicReference<Consumer<String>> SINK = new AtomicReference<>(System.err::println);
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private FileWarnings() {
    }

    /** Sends {@code message} to the sink, unless it was sent before in this process. */
    public static void warn(String message) {
        if (WARNED.add(message)) {
            SINK.get().accept("warning: " + message);
        }
    }

    /** Makes {@code sink} receive the warnings from now on; returns the one it replaces. */
    public static Consumer<String> sendTo(Consumer<String> sink) {
        return SINK.getAndSet(sink);
    }
}
