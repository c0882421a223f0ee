package org.gridrun.engine.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.gridrun.engine.backend.LossSums;

/**
 * Loss sums in GPU memory: 16 bytes a slot, as {@code gr_rows_finish} writes them (the sum, then the first row whose
 * label is not a class index). {@link #read()} downloads every slot in one copy, which waits for the step's work.
 */
final class DeviceLossSums extends LossSums {
    private static final int SLOT_BYTES = 16;

    private final Gpu gpu;
    private final CudaReductions reductions;
    private final long address;
    private final byte[] bytes;
    /** Per slot: whether the device wrote it since the last read, and the labels and classes it was computed with. */
    private final boolean[] written;
    private final long[] labels;
    private final int[] classes;
    private boolean closed;

    DeviceLossSums(Gpu gpu, CudaReductions reductions, int slots) {
        super(slots);
        this.gpu = gpu;
        this.reductions = reductions;
        this.address = gpu.allocate((long) SLOT_BYTES * slots);
        this.bytes = new byte[SLOT_BYTES * slots];
        this.written = new boolean[slots];
        this.labels = new long[slots];
        this.classes = new int[slots];
    }

    /** The slots' memory. */
    long address() {
        return address;
    }

    /** Where the device writes {@code slot}'s sum of a batch with {@code labels} of {@code classes} classes. */
    long slot(int slot, long labels, int classes) {
        this.written[slot] = true;
        this.labels[slot] = labels;
        this.classes[slot] = classes;
        return address + (long) SLOT_BYTES * slot;
    }

    @Override
    public void put(int slot, double sum) {
        written[slot] = false;
        super.put(slot, sum);
    }

    @Override
    public double[] read() {
        boolean any = false;
        for (boolean w : written) {
            any |= w;
        }
        if (any) {
            gpu.downloadBytes(address, bytes, bytes.length);
            ByteBuffer finished = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (int s = 0; s < written.length; s++) {
                if (written[s]) {
                    written[s] = false;
                    super.put(s, reductions.rowsSum(finished, SLOT_BYTES * s, labels[s], classes[s]));
                }
            }
        }
        return super.read();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            gpu.free(address);
        }
    }
}
