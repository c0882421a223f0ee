package org.gridrun.engine.compress;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where each tensor of a model lies in its flat gradient: name, shape and offset, in order and without gaps.
 *
 * <p>Methods that work per layer (per-layer buckets, JointSQ's per-layer budget, PowerSGD's matrices) read it;
 * the others see only the flat vector. A 2-D or higher tensor of shape {@code [d0, d1, …]} is viewed as a matrix of
 * {@code d0} rows and {@code d1·d2·…} columns, row-major, as PowerSGD views a weight.
 *
 * @param tensors the tensors in gradient order
 */
public record TensorLayout(List<Tensor> tensors) {

    /** One tensor: its name, shape, and first index in the flat gradient. */
    public record Tensor(String name, int[] shape, int offset) {
        public Tensor {
            Objects.requireNonNull(name, "name");
            shape = shape.clone();
            for (int d : shape) {
                if (d < 1) {
                    throw new IllegalArgumentException(name + ": every dimension must be positive, found "
                            + Arrays.toString(shape));
                }
            }
        }

        /** The number of values. */
        public int size() {
            int size = 1;
            for (int d : shape) {
                size = Math.multiplyExact(size, d);
            }
            return size;
        }

        /** Rows of its matrix view: the first dimension. */
        public int rows() {
            return shape[0];
        }

        /** Columns of its matrix view: the product of the other dimensions (1 for a vector). */
        public int columns() {
            return size() / shape[0];
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Tensor t && name.equals(t.name) && Arrays.equals(shape, t.shape) && offset == t.offset;
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, Arrays.hashCode(shape), offset);
        }

        @Override
        public String toString() {
            return name + Arrays.toString(shape) + "@" + offset;
        }
    }

    public TensorLayout {
        tensors = List.copyOf(tensors);
        int expected = 0;
        for (Tensor t : tensors) {
            if (t.offset() != expected) {
                throw new IllegalArgumentException("tensor " + t + " must start at " + expected);
            }
            expected += t.size();
        }
    }

    /** One vector of {@code length} values: what a compressor assumes until a model's layout is bound. */
    public static TensorLayout flat(int length) {
        return new TensorLayout(List.of(new Tensor("gradient", new int[] {length}, 0)));
    }

    /** A layout of consecutive tensors with these names and shapes. */
    public static TensorLayout of(List<String> names, List<int[]> shapes) {
        List<Tensor> tensors = new ArrayList<>();
        int offset = 0;
        for (int i = 0; i < names.size(); i++) {
            Tensor t = new Tensor(names.get(i), shapes.get(i), offset);
            tensors.add(t);
            offset += t.size();
        }
        return new TensorLayout(tensors);
    }

    /** The total number of values. */
    public int size() {
        return tensors.isEmpty() ? 0 : tensors.get(tensors.size() - 1).offset() + tensors.get(tensors.size() - 1)
                .size();
    }
}
