/**
 * Data sets: the IDX and CIFAR binary readers, in-memory labelled image sets stored channels-last and normalised per
 * channel, the data sets by name ({@link org.gridrun.engine.data.DataSets}: Fashion-MNIST, MNIST, CIFAR-10,
 * CIFAR-100, ImageNet) with their resolution order (a given directory, {@code GRIDRUN_DATA_DIR}, a system package,
 * the Fashion-MNIST subset shipped in the jar), the per-worker deterministic minibatch sampler, and CIFAR's stateless
 * crop-and-flip augmentation.
 *
 * <p>ImageNet is read from a torchvision ImageFolder tree and decoded as batches need it: {@code FolderIndex} lists
 * the files, {@code ImageDecoder}s (libjpeg-turbo through Debian's binding, or ImageIO) decode them,
 * {@code ImageTransforms} cut torchvision's training and evaluation views with Pillow's resampling, and the
 * threaded {@link org.gridrun.engine.data.BatchAssembler} assembles batches ahead of need.
 */
package org.gridrun.engine.data;
