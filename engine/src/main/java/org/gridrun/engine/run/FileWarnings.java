package org.gridrun.engine.run;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Where warnings about damaged files that gridrun reads on from go: a status line passed over, a results store that
 * lost rows. Each warning reaches the sink once per process (commands read a status file many times), as
 * {@code warning: MESSAGE}; the sink is standard error unless a test {@link #capture captures} them.
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

    /** Collects the warnings sent from now until it is closed, instead of the sink; for tests. */
    public static Capture capture() {
        return new Capture();
    }

    /** The warnings sent while it is open; closing it gives them to the sink before it again. */
    public static final class Capture implements AutoCloseable {
        private final List<String> warnings = new CopyOnWriteArrayList<>();
        private final Consumer<String> previous;

        private Capture() {
            previous = SINK.getAndSet(warnings::add);
        }

        /** The warnings sent since it opened or was last cleared, each as {@code warning: MESSAGE}. */
        public List<String> warnings() {
            return warnings;
        }

        /** Forgets the warnings collected so far. */
        public void clear() {
            warnings.clear();
        }

        @Override
        public void close() {
            SINK.set(previous);
        }
    }
}
