package org.gridrun.engine.train;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A request, from any thread, that a training run stop at its next step boundary, save a checkpoint and return.
 *
 * <p>A signal handler or a scheduler's notice calls {@link #request}; the trainer polls {@link #isRequested()}
 * between steps and reports the reason in its {@link TrainResult}. The first request wins: later ones change
 * nothing. A signal that is never requested lets the run go to its last step.
 */
public final class StopSignal {
    private final AtomicReference<String> reason = new AtomicReference<>();

    /**
     * Asks the run to stop, for {@code reason} (for example {@code SIGTERM}).
     *
     * @return whether this call made the request; false when an earlier one had
     */
    public boolean request(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a stop request needs a reason, found '" + reason + "'");
        }
        return this.reason.compareAndSet(null, reason);
    }

    /** Whether a stop was requested. */
    public boolean isRequested() {
        return reason.get() != null;
    }

    /** The reason of the first request; empty while none was made. */
    public String reason() {
        String r = reason.get();
        return r == null ? "" : r;
    }

    @Override
    public String toString() {
        return isRequested() ? "stop requested: " + reason() : "no stop requested";
    }
}
