package org.gridrun.analysis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;

/**
 * One attempt of an experiment, as the {@code attempts} table holds it.
 *
 * <p>Attempts begin as {@link RunRow} describes. What the status entries say in free text is picked out: the exit
 * code from {@code exit N} in the terminal entry (0 for COMPLETED when it names none), the fail trace as the detail
 * of a FAILED, DIVERGED or KILLED entry, the backend from {@code backend: B} of the COMPLETED entry, and the git
 * commit from {@code git SHA} (with {@code +dirty} when the work tree had changes) of a RUNNING entry. Each is null
 * when no entry says it.
 *
 * @param number    1 for the first attempt of the experiment, then 2, 3, …
 * @param state     the attempt's latest state
 * @param host      the host that ran it, or that recorded its latest state before it ran
 * @param job       the scheduler job that carried it, or null
 * @param started   its first RUNNING time, or null
 * @param ended     its terminal time, or null
 * @param exitCode  the exit code, or null
 * @param failTrace why it failed, or null
 * @param gitCommit the commit the job was built from, or null
 * @param gitDirty  whether that work tree had uncommitted changes, or null
 * @param backend   the compute backend it trained on, or null
 * @param updated   the time of its latest state
 */
public record Attempt(int number, RunState state, String host, String job, Instant started, Instant ended,
                      Integer exitCode, String failTrace, String gitCommit, Boolean gitDirty, String backend,
                      Instant updated) {
    private static final Pattern EXIT = Pattern.compile("\\bexit (?:code )?(-?\\d+)");
    private static final Pattern BACKEND = Pattern.compile("\\bbackend: ([^;]+)");
    private static final Pattern GIT = Pattern.compile("\\bgit ([0-9a-f]{7,40})(\\+dirty)?");

    /** Every attempt of a status history, oldest first; empty when the history is. */
    static List<Attempt> fold(List<StatusEntry> history) {
        List<Attempt> attempts = new ArrayList<>();
        RunRow row = null;
        Attempt attempt = null;
        for (StatusEntry entry : history) {
            if (RunRow.startsAttempt(row, entry)) {
                attempt = null;
            }
            row = RunRow.next(row, entry);
            attempt = next(attempt, attempts.size() + (attempt == null ? 1 : 0), row, entry);
            if (attempts.size() < attempt.number()) {
                attempts.add(attempt);
            } else {
                attempts.set(attempt.number() - 1, attempt);
            }
        }
        return attempts;
    }

    /** The attempt after {@code entry}, whose run row is now {@code row}; {@code previous} null starts one. */
    static Attempt next(Attempt previous, int number, RunRow row, StatusEntry entry) {
        String detail = entry.detail();
        RunState state = entry.state();
        Integer exitCode = previous == null ? null : previous.exitCode();
        String failTrace = previous == null ? null : previous.failTrace();
        String backend = previous == null ? null : previous.backend();
        String commit = previous == null ? null : previous.gitCommit();
        Boolean dirty = previous == null ? null : previous.gitDirty();
        if (state.isTerminal()) {
            Matcher exit = EXIT.matcher(detail);
            exitCode = exit.find() ? Integer.valueOf(exit.group(1)) : state == RunState.COMPLETED ? 0 : null;
            failTrace = state == RunState.COMPLETED || detail.isEmpty() ? null : detail;
        }
        Matcher b = BACKEND.matcher(detail);
        if (state == RunState.COMPLETED && b.find()) {
            backend = b.group(1).trim();
        }
        Matcher git = GIT.matcher(detail);
        if (state == RunState.RUNNING && git.find()) {
            commit = git.group(1);
            dirty = git.group(2) != null;
        }
        return new Attempt(number, row.state(), row.host(), row.job(), row.started(), row.ended(), exitCode,
                failTrace, commit, dirty, backend, row.updated());
    }
}
