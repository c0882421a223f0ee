package org.gridrun.engine.compress;

/**
 * Base-2 logarithm and power of doubles from a 1024-entry table and a short series, for per-value loops where
 * {@code Math.log} and {@code Math.pow} cost tens of nanoseconds each.
 *
 * <p>{@link #log2}: {@code x = 2^e·m} with {@code m} in [1, 2) read from the bits; the top ten fraction bits pick
 * {@code c = 1 + i/1024}, and {@code log2 m = log2 c + log2(1 + t)} with {@code t = m/c − 1} in [0, 2^-10), whose
 * series to {@code t⁴} leaves an error below {@code 2^-52}. {@link #exp2}: {@code z = n + i/1024 + r} with
 * {@code r} in [0, 2^-10), {@code 2^z = 2^n·2^(i/1024)·e^(r·ln 2)}, the last by its series to the fourth power
 * (error below {@code 10^-17}). Both agree with the exact functions to a few units in the last place of a double,
 * far finer than the float32 results they feed.
 */
final class Log2 {
    private static final int TABLE_BITS = 10;
    private static final int SIZE = 1 << TABLE_BITS;
    private static final double LN2 = Math.log(2);
    private static final double INV_LN2 = 1 / LN2;
    private static final double[] LOG = new double[SIZE];
    private static final double[] INVERSE = new double[SIZE];
    private static final double[] POW = new double[SIZE];

    static {
        for (int i = 0; i < SIZE; i++) {
            double c = 1 + (double) i / SIZE;
            LOG[i] = Math.log(c) * INV_LN2;
            INVERSE[i] = 1 / c;
            POW[i] = Math.pow(2, (double) i / SIZE);
        }
    }

    /** The tables a device computes the same functions from: LOG, INVERSE and POW, then ln 2 and 1/ln 2. */
    private static final double[] DEVICE_TABLES = new double[3 * SIZE + 2];

    static {
        System.arraycopy(LOG, 0, DEVICE_TABLES, 0, SIZE);
        System.arraycopy(INVERSE, 0, DEVICE_TABLES, SIZE, SIZE);
        System.arraycopy(POW, 0, DEVICE_TABLES, 2 * SIZE, SIZE);
        DEVICE_TABLES[3 * SIZE] = LN2;
        DEVICE_TABLES[3 * SIZE + 1] = INV_LN2;
    }

    private Log2() {
    }

    /** {@link #DEVICE_TABLES}, one array for the process (never changed): what {@code cast.cu}'s log2 and exp2 read. */
    static double[] deviceTables() {
        return DEVICE_TABLES;
    }

    /** {@code log2 x} for a positive, finite, normal double {@code x} (every nonzero float is one). */
    static double log2(double x) {
        long bits = Double.doubleToRawLongBits(x);
        int e = (int) (bits >>> 52) - 1023;
        int i = (int) (bits >>> (52 - TABLE_BITS)) & (SIZE - 1);
        double m = Double.longBitsToDouble(bits & 0x000FFFFFFFFFFFFFL | 0x3FF0000000000000L);
        double t = m * INVERSE[i] - 1;
        double series = t * (1 - t * (0.5 - t * (1.0 / 3 - t * 0.25)));
        return e + LOG[i] + series * INV_LN2;
    }

    /**
     * {@code 2^z}: zero far below the double range, infinity far above, NaN for NaN. For {@code z} in (−2^-54, 0),
     * {@code z − floor(z)} rounds to 1 and the table index to its size: the last entry then takes the whole step,
     * {@code 2^(1023/1024)·e^(ln 2/1024)}, about 2, times {@code 2^-1}.
     */
    static double exp2(double z) {
        if (!(z > -1100 && z < 1100)) {
            return z != z ? z : z > 0 ? Double.POSITIVE_INFINITY : 0;
        }
        double n = Math.floor(z);
        double f = (z - n) * SIZE;
        int i = Math.min((int) f, SIZE - 1);
        double y = (f - i) * (LN2 / SIZE);
        double series = 1 + y * (1 + y * (0.5 + y * (1.0 / 6 + y * (1.0 / 24))));
        double v = POW[i] * series;
        int exponent = (int) n;
        if (exponent > -1022 && exponent < 1023) {
            return v * Double.longBitsToDouble((long) (exponent + 1023) << 52);
        }
        return Math.scalb(v, exponent);
    }
}
