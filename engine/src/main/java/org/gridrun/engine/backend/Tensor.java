package org.gridrun.engine.backend;

import java.util.Objects;

/**
 * A handle to a row-major matrix that lives in a backend's memory: a buffer, an offset into it, rows and columns.
 *
 * <p>Tensors are contiguous, so a view of a larger tensor is just another offset: all parameters of a model live in
 * one flat parameter tensor and each layer's weights and biases are views of it; a worker's gradient is one flat
 * tensor with the same layout. The tensor a backend returns from {@code allocate} owns its buffer and closing it
 * releases the memory; views own nothing and closing them does nothing.
 *
 * <p>Holding a tensor gives no access to its values: read and write them through the backend that made it.
 */
public final class Tensor implements AutoCloseable {
    private final DeviceBuffer buffer;
    private final int offset;
    private final int rows;
    private final int cols;
    private final boolean owner;

    private Tensor(DeviceBuffer buffer, int offset, int rows, int cols, boolean owner) {
        this.buffer = Objects.requireNonNull(buffer, "buffer");
        if (rows < 0 || cols < 0 || offset < 0 || (long) rows * cols > Integer.MAX_VALUE
                || offset + (long) rows * cols > buffer.length()) {
            throw new IllegalArgumentException("a " + rows + "x" + cols + " tensor at offset " + offset
                    + " does not fit a buffer of " + buffer.length() + " floats");
        }
        this.offset = offset;
        this.rows = rows;
        this.cols = cols;
        this.owner = owner;
    }

    /** A tensor that owns all of {@code buffer} as {@code rows × cols}; for backends. */
    public static Tensor owning(DeviceBuffer buffer, int rows, int cols) {
        return new Tensor(buffer, 0, rows, cols, true);
    }

    public DeviceBuffer buffer() {
        return buffer;
    }

    /** The position of element (0, 0) in the buffer, in floats. */
    public int offset() {
        return offset;
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** The number of elements, {@code rows × cols}. */
    public int size() {
        return rows * cols;
    }

    /**
     * A {@code rows × cols} view starting {@code start} elements into this tensor.
     *
     * <p>The view must lie inside this tensor.
     */
    public Tensor view(int start, int rows, int cols) {
        if (start < 0 || (long) rows * cols + start > size()) {
            throw new IllegalArgumentException("a " + rows + "x" + cols + " view at " + start
                    + " does not fit a " + this.rows + "x" + this.cols + " tensor");
        }
        return new Tensor(buffer, offset + start, rows, cols, false);
    }

    /** The view of rows {@code [from, from + count)}. */
    public Tensor rowRange(int from, int count) {
        return view(from * cols, count, cols);
    }

    /** The same elements seen as {@code rows × cols}. */
    public Tensor reshape(int rows, int cols) {
        if ((long) rows * cols != size()) {
            throw new IllegalArgumentException("cannot reshape " + this.rows + "x" + this.cols + " to " + rows
                    + "x" + cols);
        }
        return new Tensor(buffer, offset, rows, cols, false);
    }

    /** Whether this tensor owns its buffer (it came from {@code allocate}). */
    public boolean isOwner() {
        return owner;
    }

    /** Releases the buffer when this tensor owns it; a view does nothing. */
    @Override
    public void close() {
        if (owner) {
            buffer.close();
        }
    }

    @Override
    public String toString() {
        return "Tensor(" + rows + "x" + cols + " at " + offset + ")";
    }
}
