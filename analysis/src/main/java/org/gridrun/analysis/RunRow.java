package org.gridrun.analysis;

import java.time.Instant;
import java.util.List;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;

/**
 * The {@code runs} row of one experiment: its current attempt, folded from state transitions.
 *
 * <p>An attempt begins with the first transition, with {@code STAGED}, or with any transition after a terminal
 * state (a resubmission); {@code PREEMPTED → QUEUED} stays in the same attempt. {@code started} is the attempt's
 * first {@code RUNNING} time, {@code ended} the terminal time, {@code host} the host that ran it (the latest
 * {@code RUNNING} entry's, or the latest entry's before it ran), {@code detail} the latest entry's detail, {@code job} the latest scheduler
 * job an entry of the attempt named, and {@code updated} the latest entry's time.
 */
record RunRow(RunState state, String host, Instant started, Instant ended, String detail, String job,
              Instant updated) {

    /** The row after every transition of {@code history}, oldest first; null when it is empty. */
    static RunRow fold(List<StatusEntry> history) {
        RunRow row = null;
        for (StatusEntry entry : history) {
            row = next(row, entry);
        }
        return row;
    }

    /** The row after {@code entry}, given the row before it (null when there was none). */
    static RunRow next(RunRow previous, StatusEntry entry) {
        RunState state = entry.state();
        boolean sameAttempt = !startsAttempt(previous, entry);
        Instant started = sameAttempt ? previous.started() : null;
        String host = entry.host();
        if (state == RunState.RUNNING && started == null) {
            started = entry.time();
        } else if (started != null && state != RunState.RUNNING) {
            host = previous.host();
        }
        Instant ended = state.isTerminal() ? entry.time() : null;
        String job = !entry.job().isEmpty() ? entry.job() : sameAttempt || state.isTerminal() && previous != null
                ? previous.job() : null;
        return new RunRow(state, host, started, ended, entry.detail(), job, entry.time());
    }

    /** Whether {@code entry} begins a new attempt after the row {@code previous} (null when there was none). */
    static boolean startsAttempt(RunRow previous, StatusEntry entry) {
        return previous == null || previous.state().isTerminal() || entry.state() == RunState.STAGED;
    }
}
