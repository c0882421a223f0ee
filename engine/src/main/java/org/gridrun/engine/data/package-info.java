/**
 * Data sets: the IDX file reader, in-memory labelled image sets, Fashion-MNIST with its resolution order (a given
 * directory, {@code GRIDRUN_DATA_DIR}, Debian's package, the subset shipped in the jar), and the per-worker
 * deterministic minibatch sampler.
 */
package org.gridrun.engine.data;
