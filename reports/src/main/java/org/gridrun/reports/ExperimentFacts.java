package org.gridrun.reports;

import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;

/**
 * The numbers a report shows for one experiment, read from the store; {@code NaN} where there is no record.
 *
 * @param experiment the experiment
 * @param finalVacc  its last test accuracy ({@code Vacc}), as recorded
 * @param finalVloss its last test loss ({@code Vloss})
 * @param meanBits   the mean of its {@code bits} records: bits sent per step
 * @param meanRatio  the mean of its {@code ratio} records: the compression ratio
 * @param finalVar   its last gradient variance ({@code est_var}), when the run measured it
 */
record ExperimentFacts(StoredExperiment experiment, double finalVacc, double finalVloss, double meanBits,
                       double meanRatio, double finalVar) {
    static final String ACCURACY = "Vacc";
    static final String TEST_LOSS = "Vloss";
    static final String BITS = "bits";
    static final String RATIO = "ratio";
    static final String VARIANCE = "est_var";

    /** Reads the facts of {@code experiment}. */
    static ExperimentFacts read(ResultsStore store, StoredExperiment experiment) {
        String id = experiment.id();
        return new ExperimentFacts(experiment, store.last(id, ACCURACY).orElse(Double.NaN),
                store.last(id, TEST_LOSS).orElse(Double.NaN), store.mean(id, BITS).orElse(Double.NaN),
                store.mean(id, RATIO).orElse(Double.NaN), store.last(id, VARIANCE).orElse(Double.NaN));
    }
}
