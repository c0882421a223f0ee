package org.gridrun.engine.data;

import java.util.Arrays;

/**
 * The contents of one IDX file of unsigned bytes: its dimensions and its values in row-major order.
 *
 * @param dims the dimensions, outermost first (e.g. {@code [60000, 28, 28]} for images, {@code [60000]} for labels)
 * @param data the values, {@code product(dims)} bytes, to be read as unsigned
 */
public record IdxData(int[] dims, byte[] data) {
    public IdxData {
        dims = dims.clone();
    }

    @Override
    public int[] dims() {
        return dims.clone();
    }

    /** The outermost dimension: the number of items. */
    public int count() {
        return dims[0];
    }

    /** The number of values per item: the product of the inner dimensions (1 for labels). */
    public int itemSize() {
        int size = 1;
        for (int i = 1; i < dims.length; i++) {
            size *= dims[i];
        }
        return size;
    }

    @Override
    public String toString() {
        return "IdxData" + Arrays.toString(dims);
    }
}
