/**
 * Data sets: the IDX and CIFAR binary readers, in-memory labelled image sets stored channels-last and normalised per
 * channel, the data sets by name ({@link org.gridrun.engine.data.DataSets}: Fashion-MNIST, MNIST, CIFAR-10,
 * CIFAR-100) with their resolution order (a given directory, {@code GRIDRUN_DATA_DIR}, a system package, the
 * Fashion-MNIST subset shipped in the jar), the per-worker deterministic minibatch sampler, and CIFAR's stateless
 * crop-and-flip augmentation.
 */
package org.gridrun.engine.data;
