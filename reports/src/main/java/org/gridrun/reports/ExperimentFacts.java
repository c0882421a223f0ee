package org.gridrun.reports;

import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.train.Headline;

/**
 * The numbers a report shows for one experiment, read from the store; {@code NaN} where there is no record.
 *
 * @param experiment the experiment
 * @param finalVacc  its last test accuracy ({@code Vacc}), as recorded
 * @param finalVppl  its last test perplexity ({@code Vppl}), recorded by language models only
 * @param finalVloss its last test loss ({@code Vloss})
 * @param meanBits   the mean of its {@code bits} records: bits sent per step
 * @param meanRatio  the mean of its {@code ratio} records: the compression ratio
 * @param finalVar   its last gradient variance ({@code est_var}), when the run measured it
 */
record ExperimentFacts(StoredExperiment experiment, double finalVacc, double finalVppl, double finalVloss,
                       double meanBits, double meanRatio, double finalVar) {
    static final String TEST_LOSS = "Vloss";
    static final String BITS = "bits";
    static final String RATIO = "ratio";
    static final String VARIANCE = "est_var";

    /** The number the experiment is judged by: perplexity when it recorded one, else accuracy. */
    Headline headline() {
        return Headline.of(!Double.isNaN(finalVppl));
    }

    /** Reads the facts of {@code experiment}. */
    static ExperimentFacts read(ResultsStore store, StoredExperiment experiment) {
        String id = experiment.id();
        return new ExperimentFacts(experiment, store.last(id, Headline.ACCURACY.metric()).orElse(Double.NaN),
                store.last(id, Headline.PERPLEXITY.metric()).orElse(Double.NaN), store.last(id, TEST_LOSS).orElse(Double.NaN), store.mean(id, BITS).orElse(Double.NaN),
                store.mean(id, RATIO).orElse(Double.NaN), store.last(id, VARIANCE).orElse(Double.NaN));
    }
}
