package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.gridrun.analysis.SeedGroup;
import org.gridrun.analysis.Groups;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.SeedSummary;
import org.gridrun.analysis.StoredExperiment;

/**
 * The results table printed at the end of a run: per group of seeds, the final test accuracy (mean ± std over
 * seeds) and the bits one worker sends per step.
 */
final class Summary {
    private final ResultsStore store;
    private final PrintWriter out;

    Summary(ResultsStore store, PrintWriter out) {
        this.store = store;
        this.out = out;
    }

    /** Prints the table for {@code grid} (and {@code run}, when not null). */
    void print(String grid, String run) {
        List<SeedGroup> groups = Groups.bySeed(store.experiments(grid, run));
        if (groups.isEmpty()) {
            return;
        }
        int width = Math.max(10, groups.stream().mapToInt(g -> g.label().length()).max().orElse(10));
        out.printf(Locale.ROOT, "%-" + width + "s  %5s  %-18s  %s%n", "experiment", "seeds", "test accuracy",
                "bits/step (one worker)");
        for (SeedGroup group : groups) {
            double[] accuracy = lastValues(group.experiments(), "Vacc");
            double[] bits = lastValues(group.experiments(), "bits");
            out.printf(Locale.ROOT, "%-" + width + "s  %5d  %-18s  %s%n", group.label(), group.experiments().size(),
                    accuracy.length == 0 ? "-" : percent(SeedSummary.of(accuracy)),
                    bits.length == 0 ? "-" : bits(SeedSummary.of(bits).mean()));
        }
        out.flush();
    }

    private double[] lastValues(List<StoredExperiment> experiments, String metric) {
        return experiments.stream().map(e -> store.last(e.id(), metric)).flatMap(Optional::stream)
                .mapToDouble(Double::doubleValue).toArray();
    }

    private static String percent(SeedSummary s) {
        return s.n() > 1 ? String.format(Locale.ROOT, "%.2f ± %.2f %%", 100 * s.mean(), 100 * s.std())
                : String.format(Locale.ROOT, "%.2f %%", 100 * s.mean());
    }

    /** A bit count with a binary-free SI prefix, as networking people write them. */
    static String bits(double bits) {
        String[] units = {"bit", "kbit", "Mbit", "Gbit"};
        int unit = 0;
        while (bits >= 1000 && unit < units.length - 1) {
            bits /= 1000;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", bits, units[unit]);
    }
}
