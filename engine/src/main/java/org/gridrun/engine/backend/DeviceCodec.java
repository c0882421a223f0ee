package org.gridrun.engine.backend;

/**
 * Encodes and decodes compressors' payloads ({@link DeviceFormat}) where a backend's tensors live, writing the bytes
 * the host encoder writes for the same random draws. A backend offers one where its device can
 * ({@link Backend#deviceCodec()}), and says which formats it takes ({@link #accepts}). Each worker's payload stays in
 * a device slot of its own, so a step whose collective also runs on the device moves nothing to the host;
 * {@link #download} fetches a payload's bytes where the host must decode it.
 */
public interface DeviceCodec {
    /** Whether this codec encodes and decodes payloads of {@code format}. */
    boolean accepts(DeviceFormat format);

    /**
     * Encodes {@code gradient} (its {@code format.length()} values) into {@code slot}'s payload, with the draws of the
     * random stream of {@code key} ({@code CounterRng.keyOf}) from position {@code firstDraw} on, as the format's
     * family takes them (a level quantizer: value {@code e} rounds with the 16-bit piece {@code e mod 4} of draw
     * {@code firstDraw + e/4}; a stochastic cast: value {@code e} rounds with the high half of draw
     * {@code firstDraw + e/2} for even {@code e}, the low half for odd); a format without randomness ignores both.
     */
    void encode(int slot, Tensor gradient, DeviceFormat format, long key, long firstDraw);

    /**
     * The bits of {@code slot}'s payload as its last encode wrote it: {@code planned}, the plan's, unless the format's
     * size depends on the values ({@link SmaqFormat}), whose bit count the device then tells (a small download).
     */
    default long payloadBits(int slot, DeviceFormat format, long planned) {
        return planned;
    }

    /**
     * The side bits (those that are not values) of {@code slot}'s payload as its last encode wrote it, which is
     * {@code payloadBits} long: the format's ({@link DeviceFormat#sideBits}) unless they depend on the values
     * ({@link JointSqFormat}'s maps), which the device then tells.
     */
    default long sideBits(int slot, DeviceFormat format, long payloadBits, long planned) {
        return format.sideBits(payloadBits, planned);
    }

    /**
     * How many vectors of {@code format.length()} floats encodes of {@code format} keep in a slot between steps, the
     * method's state (DGC's momentum and accumulator: {@link ThresholdFormat#keptVectors}); 0 for most formats. A
     * slot's vectors start at zero; {@link #uploadKept} replaces one, {@link #fetchKept} copies it out.
     */
    default int keptVectors(DeviceFormat format) {
        return 0;
    }

    /** Replaces kept vector {@code vector} of {@code slot} (of {@code format}'s family) by {@code values}. */
    default void uploadKept(int slot, DeviceFormat format, int vector, float[] values) {
        throw new UnsupportedOperationException(format + " keeps nothing between steps");
    }

    /** Copies kept vector {@code vector} of {@code slot} (of {@code format}'s family) into {@code into}. */
    default void fetchKept(int slot, DeviceFormat format, int vector, float[] into) {
        throw new UnsupportedOperationException(format + " keeps nothing between steps");
    }

    /** Copies {@code slot}'s payload to {@code out}, {@code format.payloadBytes()} long. */
    void download(int slot, DeviceFormat format, byte[] out);

    /**
     * Decodes {@code slot}'s payload and adds it to the mean of {@code workers} gradients building in {@code mean}
     * as the host's simulated collective does: worker 0 overwrites it, the others add in order, the last scales the
     * sum by {@code 1/workers}.
     */
    void decodeIntoMean(int slot, DeviceFormat format, int worker, int workers, Tensor mean);

    /** Whether {@link #clipNorm} clips on the device. */
    default boolean clipsNorms() {
        return false;
    }

    /**
     * Scales {@code gradient} in place by {@code maxNorm / (norm + 1e-6)} where its L2 norm exceeds {@code maxNorm}, with
     * the bits of the host's {@code GradientClip} (the squared norm summed in {@code ChainSums}' order), queued on the
     * device without waiting: a language model's clipping without its gradient crossing to the host. Each
     * {@code slot} (a worker) has buffers of its own, so that workers' clippings may run at the same time.
     */
    default void clipNorm(int slot, Tensor gradient, double maxNorm) {
        throw new UnsupportedOperationException("this device codec does not clip gradients");
    }
}
