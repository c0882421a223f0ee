package org.gridrun.engine.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.gridrun.engine.backend.LossSums;

/**
 * Loss sums in GPU memory: 16 bytes a slot, as {@code gr_rows_finish} writes them (the sum, then the first row whose
 * label is not a class index and that label), downloaded in one copy: {@link #startRead()} has it made once a
 * launched step graph has finished, before the next one can write the slots again ({@link StepGraph#readAfterGraph}),
 * or at once where none runs; {@link #read()} is the two halves together, so it waits for the step's work.
 */
final class DeviceLossSums extends LossSums {
    private static final int SLOT_BYTES = 16;

    private final StepGraph gpu;
    private final long address;
    /** Per slot: whether the device wrote it since the last read, and the classes of the batch it was computed on. */
    private final boolean[] written;
    private final int[] classes;
    /** The same for the read {@link #startRead()} started, and the bytes it downloads into. */
    private final byte[] bytes;
    private final boolean[] laterWritten;
    private final int[] laterClasses;
    private boolean closed;

    DeviceLossSums(StepGraph gpu, int slots) {
        super(slots);
        this.gpu = gpu;
        this.address = gpu.allocate((long) SLOT_BYTES * slots);
        this.written = new boolean[slots];
        this.classes = new int[slots];
        this.bytes = new byte[SLOT_BYTES * slots];
        this.laterWritten = new boolean[slots];
        this.laterClasses = new int[slots];
    }

    /** The slots' memory. */
    long address() {
        return address;
    }

    /** Where the device writes {@code slot}'s sum of a batch of {@code classes} classes. */
    long slot(int slot, int classes) {
        this.written[slot] = true;
        this.classes[slot] = classes;
        return address + (long) SLOT_BYTES * slot;
    }

    @Override
    public void put(int slot, double sum) {
        written[slot] = false;
        super.put(slot, sum);
    }

    @Override
    public void startRead() {
        boolean any = false;
        for (int s = 0; s < written.length; s++) {
            laterWritten[s] = written[s];
            laterClasses[s] = classes[s];
            any |= written[s];
            written[s] = false;
        }
        super.startRead();
        if (any) {
            gpu.readAfterGraph(address, bytes, bytes.length);
        }
    }

    @Override
    public double[] finishRead() {
        double[] sums = super.finishRead();
        boolean any = false;
        for (boolean w : laterWritten) {
            any |= w;
        }
        if (any) {
            gpu.finishReads();
            ByteBuffer finished = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (int s = 0; s < laterWritten.length; s++) {
                if (laterWritten[s]) {
                    laterWritten[s] = false;
                    sums[s] = CudaReductions.rowsSum(finished, SLOT_BYTES * s, laterClasses[s]);
                }
            }
        }
        return sums;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            gpu.free(address);
        }
    }
}
