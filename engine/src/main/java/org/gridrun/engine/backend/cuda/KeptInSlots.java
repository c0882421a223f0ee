package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.DeviceFormat;

/**
 * A codec whose workers' slots keep vectors between steps in {@link SlotVectors} (DGC's momentum and accumulator, a
 * residual): {@link #uploadKept} and {@link #fetchKept} move slot {@code slot}'s vector through
 * {@link #keptSlots()}, sized to the format's length.
 */
interface KeptInSlots<F extends DeviceFormat> extends FormatCodec<F> {
    /** The workers' kept vectors. */
    WorkerSlots<SlotVectors> keptSlots();

    @Override
    default void uploadKept(int slot, F format, int vector, float[] values) {
        keptSlots().get(slot).of(format.length()).upload(vector, values);
    }

    @Override
    default void fetchKept(int slot, F format, int vector, float[] into) {
        keptSlots().get(slot).of(format.length()).download(vector, into);
    }
}
