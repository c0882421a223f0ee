package org.gridrun.engine.backend;

/**
 * S2FP8's wire format, as a device codec needs it: per tensor its squeeze {@code α} and shift {@code β} as float32
 * (all tensors first), from the mean of {@code log2|x|} over its nonzero finite values (summed in ChainSums' chain
 * order) and the logarithm of its largest magnitude; then one E5M2 code per value of
 * {@code sign(x)·2^(α·log2|x| + β)}, stochastic rounding taking the 32-bit uniform of draw {@code firstDraw + e/2}
 * (the high half for even {@code e}). Logarithms and powers are the host's table-and-series ones, from
 * {@code tables}.
 *
 * @param stochastic whether values round stochastically (else to nearest)
 * @param bounds     where each tensor starts, and {@code length} last; never changed once the format is made
 * @param tables     the host's log2 and exp2 tables (log2 c, 1/c and 2^(i/1024) for 1024 entries, then ln 2 and 1/ln 2);
 *                   never changed
 * @param length     the number of values
 */
public record S2fp8Format(boolean stochastic, int[] bounds, double[] tables, int length) implements DeviceFormat {
    /** The number of tensors. */
    public int tensors() {
        return bounds.length - 1;
    }

    @Override
    public int payloadBytes() {
        return 8 * tensors() + length;
    }
}
