package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.ConvGeometry;

/**
 * Pooling and the option-A shortcut on the GPU ({@code pool.cu}), for channels-last images; shapes were checked by
 * the caller. Backward passes gather (each input position sums what reaches it), so no atomics are needed.
 */
final class CudaPooling {
    private final Gpu gpu;

    CudaPooling(Gpu gpu) {
        this.gpu = gpu;
    }

    /** See {@code Backend#maxPool}. */
    void maxPool(long x, int images, ConvGeometry g, long y) {
        throw new UnsupportedOperationException("maxPool is not on cuda yet");
    }

    /** See {@code Backend#maxPoolBackward}: {@code dx} is overwritten. */
    void maxPoolBackward(long x, long dy, int images, ConvGeometry g, long dx) {
        throw new UnsupportedOperationException("maxPoolBackward is not on cuda yet");
    }

    /** See {@code Backend#meanPool}: {@code x} is rows × positions·channels, {@code y} rows × channels. */
    void meanPool(long x, int rows, int positions, int channels, long y) {
        throw new UnsupportedOperationException("meanPool is not on cuda yet");
    }

    /** See {@code Backend#meanPoolBackward}: {@code dx} is overwritten. */
    void meanPoolBackward(long dy, int rows, int positions, int channels, long dx) {
        throw new UnsupportedOperationException("meanPoolBackward is not on cuda yet");
    }

    /** See {@code Backend#shortcut}: {@code y} is images × outH·outW·outChannels. */
    void shortcut(long x, int images, ConvGeometry g, int outChannels, int before, long y) {
        throw new UnsupportedOperationException("shortcut is not on cuda yet");
    }

    /** See {@code Backend#shortcutBackward}: {@code dx} is overwritten. */
    void shortcutBackward(long dy, int images, ConvGeometry g, int outChannels, int before, long dx) {
        throw new UnsupportedOperationException("shortcutBackward is not on cuda yet");
    }
}
