package org.gridrun.engine.backend;

import org.bytedeco.dnnl.memory;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

/**
 * A grow-only off-heap float buffer that oneDNN allocates (aligned as it prefers), and the copies between it and
 * Java arrays.
 *
 * <p>oneDNN cannot read the Java heap, whose arrays the garbage collector moves, so each operand is copied in and
 * each result out; the copies are a few percent of a convolution's time.
 */
final class OneDnnScratch implements AutoCloseable {
    private memory block;
    private long capacity;
    private FloatPointer view;

    /** The buffer's address, holding at least {@code floats} values; what it held is lost when it grows. */
    Pointer ensure(long floats) {
        if (floats > capacity) {
            long grown = Math.max(floats, capacity + capacity / 2);
            close();
            capacity = grown;
            try (LongPointer dims = new LongPointer(new long[] {grown})) {
                block = new memory(new memory.desc(dims, memory.data_type.f32, memory.format_tag.a), OneDnn.cpu());
            }
            view = new FloatPointer(block.get_data_handle());
        }
        return view.position(0);
    }

    /** The floats the buffer holds, 0 before the first {@link #ensure} and after {@link #close}. */
    long capacity() {
        return capacity;
    }

    /** Copies {@code length} values of {@code src} from {@code offset} to the buffer's start. */
    Pointer copyIn(float[] src, int offset, int length) {
        Pointer handle = ensure(length);
        view.position(0).put(src, offset, length);
        return handle;
    }

    /** Copies the buffer's first {@code length} values to {@code dst} from {@code offset}. */
    void copyOut(float[] dst, int offset, int length) {
        view.position(0).get(dst, offset, length);
    }

    @Override
    public void close() {
        if (block != null) {
            block.close();
            block = null;
            capacity = 0;
        }
    }
}
