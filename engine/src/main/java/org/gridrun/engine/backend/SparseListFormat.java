package org.gridrun.engine.backend;

/**
 * The wire format of the sparsifiers that send a list of positions, as a device codec needs it: {@link TopKFormat}
 * lists the positions it selected, {@link SharedPositionsFormat} sends only the values at positions every worker
 * drew alike. Values are IEEE 754 float32 in ascending order of position, packed least significant bit first.
 */
public sealed interface SparseListFormat extends DeviceFormat permits TopKFormat, SharedPositionsFormat {
    /** How many values the payload lists. */
    int kept();

    /** Bits per listed position of a gradient of {@code n} values: {@code max(1, ceil(log2 n))}. */
    static int indexWidth(int n) {
        return n <= 2 ? 1 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }
}
