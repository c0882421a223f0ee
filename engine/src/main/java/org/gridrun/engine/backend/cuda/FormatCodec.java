package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.DeviceFormat;

/**
 * The GPU codec of one family of wire formats ({@code F}), one of those {@link CudaDeviceCodec} dispatches to. The
 * contract of each operation is {@link org.gridrun.engine.backend.DeviceCodec}'s, with tensors as device addresses;
 * {@link #close()} frees the codec's slots.
 */
interface FormatCodec<F extends DeviceFormat> extends AutoCloseable {
    /** The format records this codec takes. */
    Class<F> formats();

    /** Encodes the {@code format.length()} floats at {@code gradient} into {@code slot}'s payload. */
    void encode(int slot, long gradient, F format, long key, long firstDraw);

    /** The bits of {@code slot}'s payload as its last encode wrote it ({@code DeviceCodec.payloadBits}). */
    default long payloadBits(int slot, F format, long planned) {
        return planned;
    }

    /** The side bits of {@code slot}'s payload ({@code DeviceCodec.sideBits}). */
    default long sideBits(int slot, F format, long payloadBits, long planned) {
        return format.sideBits(payloadBits, planned);
    }

    /** The vectors encodes of {@code format} keep in a slot ({@code DeviceCodec.keptVectors}). */
    default int keptVectors(F format) {
        return 0;
    }

    /** Replaces kept vector {@code vector} of {@code slot} ({@code DeviceCodec.uploadKept}). */
    default void uploadKept(int slot, F format, int vector, float[] values) {
        throw new UnsupportedOperationException(format + " keeps nothing between steps");
    }

    /** Copies kept vector {@code vector} of {@code slot} out ({@code DeviceCodec.fetchKept}). */
    default void fetchKept(int slot, F format, int vector, float[] into) {
        throw new UnsupportedOperationException(format + " keeps nothing between steps");
    }

    /** Copies {@code slot}'s payload to {@code out}. */
    void download(int slot, F format, byte[] out);

    /** Decodes {@code slot}'s payload into the mean building at {@code mean} ({@code format.length()} floats). */
    void decodeIntoMean(int slot, F format, int worker, int workers, long mean);

    @Override
    void close();
}
