package org.gridrun.engine.backend.cuda;

import java.util.List;
import org.gridrun.engine.backend.DeviceCodec;
import org.gridrun.engine.backend.DeviceFormat;
import org.gridrun.engine.backend.Tensor;

/**
 * The CUDA backend's device codec: hands each format to the {@link FormatCodec} of its family, after checking the
 * tensors' sizes against it. A format no family takes is refused by {@link #accepts}, so the trainer encodes it on the
 * host.
 */
final class CudaDeviceCodec implements DeviceCodec, AutoCloseable {
    private final List<FormatCodec<?>> families;
    /** Gradient clipping on the device, or null where this codec does not clip. */
    private final CudaGradientClip clip;

    CudaDeviceCodec(List<FormatCodec<?>> families) {
        this(families, null);
    }

    CudaDeviceCodec(List<FormatCodec<?>> families, CudaGradientClip clip) {
        this.families = List.copyOf(families);
        this.clip = clip;
    }

    @Override
    public boolean clipsNorms() {
        return clip != null;
    }

    @Override
    public void clipNorm(int slot, Tensor gradient, double maxNorm) {
        if (clip == null) {
            DeviceCodec.super.clipNorm(slot, gradient, maxNorm);
            return;
        }
        clip.clip(slot, CudaBuffer.of(gradient), gradient.size(), maxNorm);
    }

    @Override
    public boolean accepts(DeviceFormat format) {
        return find(format) != null;
    }

    @Override
    public void encode(int slot, Tensor gradient, DeviceFormat format, long key, long firstDraw) {
        requireLength("a payload of %d values from a gradient of %d", format, gradient);
        familyOf(format).encode(slot, CudaBuffer.of(gradient), format, key, firstDraw);
    }

    @Override
    public long payloadBits(int slot, DeviceFormat format, long planned) {
        return familyOf(format).payloadBits(slot, format, planned);
    }

    @Override
    public long sideBits(int slot, DeviceFormat format, long payloadBits, long planned) {
        return familyOf(format).sideBits(slot, format, payloadBits, planned);
    }

    @Override
    public int keptVectors(DeviceFormat format) {
        return familyOf(format).keptVectors(format);
    }

    @Override
    public void uploadKept(int slot, DeviceFormat format, int vector, float[] values) {
        requireKept(format, vector, values);
        familyOf(format).uploadKept(slot, format, vector, values);
    }

    @Override
    public void fetchKept(int slot, DeviceFormat format, int vector, float[] into) {
        requireKept(format, vector, into);
        familyOf(format).fetchKept(slot, format, vector, into);
    }

    private void requireKept(DeviceFormat format, int vector, float[] values) {
        if (vector < 0 || vector >= keptVectors(format) || values.length != format.length()) {
            throw new IllegalArgumentException("kept vector " + vector + " of " + values.length + " values of a "
                    + format.getClass().getSimpleName() + " of " + format.length());
        }
    }

    @Override
    public void download(int slot, DeviceFormat format, byte[] out) {
        if (out.length < format.payloadBytes()) {
            throw new IllegalArgumentException("a payload of " + format.payloadBytes() + " bytes into "
                    + out.length);
        }
        familyOf(format).download(slot, format, out);
    }

    @Override
    public void decodeIntoMean(int slot, DeviceFormat format, int worker, int workers, Tensor mean) {
        requireLength("a payload of %d values into a mean of %d", format, mean);
        if (worker < 0 || worker >= workers) {
            throw new IllegalArgumentException("worker " + worker + " of " + workers);
        }
        familyOf(format).decodeIntoMean(slot, format, worker, workers, CudaBuffer.of(mean));
    }

    private static void requireLength(String message, DeviceFormat format, Tensor tensor) {
        if (tensor.size() != format.length()) {
            throw new IllegalArgumentException(String.format(message, format.length(), tensor.size()));
        }
    }

    /** The family of {@code format}, typed so that its operations take it. */
    private <F extends DeviceFormat> FormatCodec<F> familyOf(F format) {
        FormatCodec<F> family = find(format);
        if (family == null) {
            throw new IllegalArgumentException("the GPU has no codec for " + format.getClass().getSimpleName());
        }
        return family;
    }

    /** The family that takes {@code format}, or null. */
    @SuppressWarnings("unchecked")
    private <F extends DeviceFormat> FormatCodec<F> find(F format) {
        for (FormatCodec<?> family : families) {
            if (family.formats().isInstance(format)) {
                return (FormatCodec<F>) family;
            }
        }
        return null;
    }

    @Override
    public void close() {
        for (FormatCodec<?> family : families) {
            family.close();
        }
        if (clip != null) {
            clip.close();
        }
    }
}
