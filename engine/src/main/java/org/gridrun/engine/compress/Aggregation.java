package org.gridrun.engine.compress;

/**
 * How the workers' payloads of one compressor combine: a property of the method, declared by the compressor.
 *
 * <p>It decides which collective a real cluster would run and therefore what each worker sends.
 */
public enum Aggregation {
    /**
     * The sum of the payloads is meaningful (full precision, FP16, PowerSGD's factors, random-k with a shared seed):
     * the workers can all-reduce payloads, and the result is the decoded sum divided by the worker count.
     */
    ALL_REDUCE,
    /**
     * Each payload carries per-worker information (its own norms, its own top-k indices): every worker's payload is
     * gathered and decoded on its own, and the decoded gradients are averaged.
     */
    ALL_GATHER
}
