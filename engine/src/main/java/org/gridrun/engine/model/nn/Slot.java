package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * Where one named tensor lives in a network's flat parameter (or running-statistics) vector.
 *
 * @param name   the tensor's name, e.g. {@code layer1.0.conv1.weight}
 * @param offset its first value in the flat vector
 * @param rows   rows of its matrix view (output units or channels)
 * @param cols   columns of its matrix view (values per output unit)
 * @param shape  its shape in memory order, for the tensor layout compressors see
 * @param init   how it starts
 * @param fanIn  inputs per output, for the initialisation
 * @param fanOut outputs per input, for the initialisation
 */
record Slot(String name, int offset, int rows, int cols, int[] shape, Init init, int fanIn, int fanOut) {
    int size() {
        return rows * cols;
    }

    /** This slot's matrix view of the flat tensor {@code flat}. */
    Tensor of(Tensor flat) {
        return flat.view(offset, rows, cols);
    }
}
