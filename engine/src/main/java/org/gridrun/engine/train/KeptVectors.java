package org.gridrun.engine.train;

import java.util.List;
import org.gridrun.engine.backend.DeviceCodec;
import org.gridrun.engine.backend.DeviceFormat;
import org.gridrun.engine.compress.ResidualFeedback;
import org.gridrun.engine.compress.ResidualMemory;

/**
 * The vectors a method keeps between steps that the device codec keeps in each worker's slot while the method encodes
 * there ({@code DeviceEncodable.keptInSlot}: DGC's momentum and accumulator): before an encode each is uploaded where
 * the host has newer values (the first step, a restored checkpoint, a step encoded on the host), after it the method's
 * memory is told the device keeps it, and the memory fetches it from the slot before the host reads it.
 */
final class KeptVectors {
    private final DeviceCodec codec;
    /** Each worker's handles on its slot's vectors, made at its first encode that keeps any. */
    private final Slot[][] handles;

    KeptVectors(DeviceCodec codec, int workers) {
        this.codec = codec;
        this.handles = new Slot[workers][];
    }

    /** One kept vector of a worker's slot, fetched with the family of the last format encoded there. */
    private final class Slot implements ResidualFeedback.DeviceResidual {
        final int worker;
        final int vector;
        DeviceFormat format;

        Slot(int worker, int vector) {
            this.worker = worker;
            this.vector = vector;
        }

        @Override
        public void fetch(float[] into) {
            codec.fetchKept(worker, format, vector, into);
        }
    }

    /** Uploads the vectors of {@code kept} that the device does not hold, before worker {@code w} encodes. */
    void beforeEncode(int w, List<ResidualMemory> kept, DeviceFormat format) {
        if (kept.size() != codec.keptVectors(format)) {
            throw new IllegalStateException("a method keeping " + kept.size() + " vectors planned a "
                    + format.getClass().getSimpleName() + " whose codec keeps " + codec.keptVectors(format));
        }
        if (kept.isEmpty()) {
            return;
        }
        if (handles[w] == null || handles[w].length != kept.size()) {
            handles[w] = new Slot[kept.size()];
            for (int i = 0; i < kept.size(); i++) {
                handles[w][i] = new Slot(w, i);
            }
        }
        for (int i = 0; i < kept.size(); i++) {
            Slot slot = handles[w][i];
            if (!kept.get(i).isOn(slot) || slot.format.length() != format.length()) {
                codec.uploadKept(w, format, i, kept.get(i).current(format.length()));
            }
            slot.format = format;
        }
    }

    /** Tells {@code kept}'s memories that worker {@code w}'s slot now holds them. */
    void afterEncode(int w, List<ResidualMemory> kept) {
        for (int i = 0; i < kept.size(); i++) {
            kept.get(i).keptBy(handles[w][i]);
        }
    }
}
