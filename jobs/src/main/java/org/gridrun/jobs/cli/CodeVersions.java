package org.gridrun.jobs.cli;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.gridrun.analysis.Attempt;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;

/**
 * Which gridrun builds produced a grid's results: the git commit of each experiment's latest attempt that recorded
 * one, counted, for {@code grid-run status}.
 */
final class CodeVersions {
    /** Characters of a commit id shown; enough to tell commits of one repository apart. */
    static final int SHORT_COMMIT = 12;

    private CodeVersions() {
    }

    /**
     * {@code git <commit>[+dirty] (<n>)} for each build, most experiments first, joined by commas; empty when no
     * attempt recorded a commit.
     */
    static String of(ResultsStore store, List<StoredExperiment> experiments) {
        Map<String, Integer> counts = new TreeMap<>();
        for (StoredExperiment e : experiments) {
            List<Attempt> attempts = store.attempts(e.id());
            for (int i = attempts.size() - 1; i >= 0; i--) {
                Attempt a = attempts.get(i);
                if (a.gitCommit() != null) {
                    counts.merge(label(a), 1, Integer::sum);
                    break;
                }
            }
        }
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .map(c -> c.getKey() + " (" + c.getValue() + ")").collect(Collectors.joining(", "));
    }

    private static String label(Attempt a) {
        String commit = a.gitCommit();
        return "git " + commit.substring(0, Math.min(SHORT_COMMIT, commit.length()))
                + (Boolean.TRUE.equals(a.gitDirty()) ? "+dirty" : "");
    }
}
