package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.backend.DeviceFormat;

/**
 * A GPU codec whose formats need nothing on the device but the payload (casts, signs): each slot (a worker) keeps a
 * payload buffer, grown once to the largest payload it holds, downloaded from its start; {@link #close()} frees them.
 */
abstract class SlotPayloadCodec<F extends DeviceFormat> implements FormatCodec<F> {
    /** The GPU the subclass launches its kernels on. */
    protected final Gpu gpu;
    private final Class<F> formats;
    private final List<Upload> slots = new ArrayList<>();

    SlotPayloadCodec(Gpu gpu, Class<F> formats) {
        this.gpu = gpu;
        this.formats = formats;
    }

    @Override
    public final Class<F> formats() {
        return formats;
    }

    /** Slot {@code slot}'s payload buffer, at least {@code bytes} long, in whole words for kernels that write words. */
    protected final long reserve(int slot, long bytes) {
        return slot(slot).reserve(Math.max(4, (bytes + 3) / 4 * 4));
    }

    /** Slot {@code slot}'s payload buffer, as its last encode left it. */
    protected final long payload(int slot) {
        return slot(slot).address();
    }

    @Override
    public final void download(int slot, F format, byte[] out) {
        gpu.downloadBytes(payload(slot), out, format.payloadBytes());
    }

    private Upload slot(int slot) {
        while (slots.size() <= slot) {
            slots.add(new Upload(gpu));
        }
        return slots.get(slot);
    }

    @Override
    public void close() {
        for (Upload s : slots) {
            s.free();
        }
        slots.clear();
    }
}
