package org.gridrun.engine.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.gridrun.engine.backend.LossSums;

/**
 * Loss sums in GPU memory: 16 bytes a slot, as {@code gr_rows_finish} writes them (the sum, then the first row whose
 * label is not a class index). {@link #read()} downloads every slot in one copy, which waits for the step's work;
 * {@link #startRead()} has the copy made once a launched step graph has finished, before the next one can write the
 * slots again ({@link StepGraph#readAfterGraph}).
 */
final class DeviceLossSums extends LossSums {
    private static final int SLOT_BYTES = 16;

    private final StepGraph gpu;
    private final CudaReductions reductions;
    private final long address;
    private final byte[] bytes;
    /** Per slot: whether the device wrote it since the last read, and the labels and classes it was computed with. */
    private final boolean[] written;
    private final long[] labels;
    private final int[] classes;
    /** The same for the read {@link #startRead()} started, and the bytes it downloads into. */
    private final byte[] laterBytes;
    private final boolean[] laterWritten;
    private final long[] laterLabels;
    private final int[] laterClasses;
    private boolean closed;

    DeviceLossSums(StepGraph gpu, CudaReductions reductions, int slots) {
        super(slots);
        this.gpu = gpu;
        this.reductions = reductions;
        this.address = gpu.allocate((long) SLOT_BYTES * slots);
        this.bytes = new byte[SLOT_BYTES * slots];
        this.written = new boolean[slots];
        this.labels = new long[slots];
        this.classes = new int[slots];
        this.laterBytes = new byte[SLOT_BYTES * slots];
        this.laterWritten = new boolean[slots];
        this.laterLabels = new long[slots];
        this.laterClasses = new int[slots];
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
    public void startRead() {
        boolean any = false;
        for (int s = 0; s < written.length; s++) {
            laterWritten[s] = written[s];
            laterLabels[s] = labels[s];
            laterClasses[s] = classes[s];
            any |= written[s];
            written[s] = false;
        }
        super.startRead();
        if (any) {
            gpu.readAfterGraph(address, laterBytes, laterBytes.length);
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
            ByteBuffer finished = ByteBuffer.wrap(laterBytes).order(ByteOrder.LITTLE_ENDIAN);
            for (int s = 0; s < laterWritten.length; s++) {
                if (laterWritten[s]) {
                    laterWritten[s] = false;
                    sums[s] = reductions.rowsSum(finished, SLOT_BYTES * s, laterLabels[s], laterClasses[s]);
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
