/**
 * Compute backends: device buffers ({@link org.gridrun.engine.backend.Tensor}), the operations the models and
 * optimizers need ({@link org.gridrun.engine.backend.Backend}), the CPU implementation on netlib BLAS, and the
 * provider registry ({@link org.gridrun.engine.backend.Backends}) through which a CUDA backend plugs in.
 *
 * <p>Model and optimizer code never touches Java arrays: {@code upload} and {@code download} are the only
 * host-array boundary, which {@link org.gridrun.engine.backend.TensorIo} also crosses to save a tensor in a
 * checkpoint.
 */
package org.gridrun.engine.backend;
