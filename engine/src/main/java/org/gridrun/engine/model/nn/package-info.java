/**
 * Layers for convolutional and residual networks on a {@link org.gridrun.engine.backend.Backend}, and the
 * {@link org.gridrun.engine.model.Model} that chains them.
 *
 * <p>Images are channels-last (NHWC): one image is one tensor row, pixel by pixel, each pixel's channels together,
 * so a convolution is an im2col and one matrix product, and batch normalisation is a per-column operation. A
 * network is described once by a recipe on a {@link NetBuilder}; the recipe runs once to place the parameters and
 * once per workspace to make that worker's layers with their buffers.
 */
package org.gridrun.engine.model.nn;
