package org.gridrun.reports.paper;

import java.util.List;
import java.util.TreeSet;
import org.gridrun.analysis.StoredExperiment;

/**
 * The iterations of a figure's learning-rate drops when its spec does not give them: every value of the drawn
 * experiments' {@code lr_decay_iters} (a list such as {@code 40000,60000}).
 *
 * <p>Drops given in epochs ({@code lr_decay_epochs}) are not converted: the spec must give {@code lr_drops} then.
 */
final class LrDrops {
    static final String KEY = "lr_decay_iters";

    private LrDrops() {
    }

    static List<Long> of(List<StoredExperiment> experiments) {
        TreeSet<Long> drops = new TreeSet<>();
        for (StoredExperiment e : experiments) {
            Object value = e.config().get(KEY);
            if (value == null) {
                continue;
            }
            for (String part : value.toString().split("[\\[\\],\\s]+")) {
                if (!part.isEmpty()) {
                    drops.add((long) Double.parseDouble(part));
                }
            }
        }
        return List.copyOf(drops);
    }
}
