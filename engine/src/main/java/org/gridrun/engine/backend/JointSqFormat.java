package org.gridrun.engine.backend;

/**
 * JointSQ's wire format, as a device codec needs it to write the payload the host encoder writes, with either
 * allocation: the search ({@code allocation: search}, the default), or the paper's knapsack, whose sampled threshold
 * reads the positions the plan drew ({@link #samplePositions}). The payload: per tensor of the bound layout, in layout order, the width map (order-1
 * range-ANS coded, or 2 bits a value when that is shorter), the scale of each width group that has values, and the
 * 2-bit group's values packed three in 7 bits, then the 4-bit and 8-bit codes, each group in position order. Value
 * {@code i} rounds with the 32-bit uniform of draw {@code firstDraw + i/2} (the high half for even {@code i}, the low
 * for odd), its top 24 bits as a float in [0, 1). The method's residual is kept in the worker's slot
 * ({@link #keptVectors}): the codec encodes {@code c = g + e} and leaves {@code e ← c − D(c)}.
 *
 * <p>The payload's size and its side bits (the maps and scales) depend on the values, so {@link #payloadBytes} is only
 * its least and the codec tells both after the encode ({@link DeviceCodec#payloadBits}, {@link DeviceCodec#sideBits}).
 *
 * @param length  the number of values
 * @param offsets where each tensor starts, and {@code length} last ({@code tensors() + 1} entries, ascending); never
 *                changed once the format is made
 * @param budgets each tensor's value-bit budget ({@code ceil(n·32·rate)}); never changed once the format is made
 * @param sampleStarts with the knapsack, where each tensor's sampled positions start in {@code samplePositions}, and
 *                     their count last ({@code tensors() + 1} entries); empty with the search
 * @param samplePositions with the knapsack, each tensor's sampled positions (within the tensor), in draw order
 */
public record JointSqFormat(int length, int[] offsets, long[] budgets, int[] sampleStarts, int[] samplePositions)
        implements DeviceFormat {
    /** The method's residual, kept in the slot. */
    public static final int KEPT_VECTORS = 1;
    /** The bits of a coded map besides its bytes: the mode bit and twelve 13-bit frequencies. */
    public static final int CODED_MAP_HEADER = 1 + 12 * 13;

    /** The search's format of a gradient of {@code length} values cut at {@code offsets}. */
    public static JointSqFormat search(int length, int[] offsets, long[] budgets) {
        return new JointSqFormat(length, offsets, budgets, new int[0], new int[0]);
    }

    /** This format with the knapsack's sample: {@code sampleStarts} into {@code samplePositions}. */
    public JointSqFormat withSample(int[] sampleStarts, int[] samplePositions) {
        return new JointSqFormat(length, offsets, budgets, sampleStarts, samplePositions);
    }

    /** Whether the widths come from the paper's knapsack rather than the search. */
    public boolean knapsack() {
        return sampleStarts.length > 0;
    }

    public JointSqFormat {
        if (sampleStarts.length != 0 && (sampleStarts.length != budgets.length + 1
                || sampleStarts[budgets.length] != samplePositions.length)) {
            throw new IllegalArgumentException(sampleStarts.length + " sample starts for " + budgets.length
                    + " tensors and " + samplePositions.length + " positions");
        }
        if (offsets.length != budgets.length + 1 || offsets[0] != 0 || offsets[budgets.length] != length) {
            throw new IllegalArgumentException("tensor offsets " + offsets.length + " for " + budgets.length
                    + " budgets of a gradient of " + length);
        }
        for (int t = 0; t < budgets.length; t++) {
            if (offsets[t + 1] < offsets[t] || budgets[t] < 0) {
                throw new IllegalArgumentException("tensor " + t + ": offsets " + offsets[t] + ".." + offsets[t + 1]
                        + ", budget " + budgets[t]);
            }
        }
    }

    /** The number of tensors. */
    public int tensors() {
        return budgets.length;
    }

    /** The least payload: one mode bit a tensor. */
    @Override
    public int payloadBytes() {
        return (tensors() + 7) / 8;
    }

    /** The most bits a payload takes: per tensor a plain map, three scales and its budget. */
    public long mostBits() {
        long bits = 0;
        for (int t = 0; t < tensors(); t++) {
            bits += 2L * (offsets[t + 1] - offsets[t]) + 1 + 96 + budgets[t];
        }
        return bits;
    }

    @Override
    public long sideBits(long payloadBits, long planned) {
        throw new UnsupportedOperationException("a jointsq payload's side bits are told by the codec");
    }
}
