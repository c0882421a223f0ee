package org.gridrun.grids;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import org.gridrun.grids.yaml.Mark;
import org.gridrun.grids.yaml.Scalar;

/**
 * Generated numbers as values with short, stable texts.
 *
 * <p>A generated double is rounded to 12 significant digits (half even) and its trailing zeros dropped, so that
 * {@code linspace [0, 1, 11]} gives 0.3 and not 0.30000000000000004; the value is the rounded number, so that it
 * hashes like the same number written by hand. The text is plain ({@code 0.001}, {@code 1500}) when the decimal
 * exponent is from -7 to 14, else scientific in lower case ({@code 1e-9}, {@code 2.5e+15}).
 */
final class Numbers {
    static final MathContext DIGITS = new MathContext(12, RoundingMode.HALF_EVEN);
    /** Whole numbers up to this magnitude can become integers without losing any digit of a double. */
    private static final double EXACT_WHOLE = 1L << 53;

    private Numbers() {
    }

    /** {@code x} rounded to 12 significant digits, trailing zeros dropped. */
    static BigDecimal round(double x) {
        return new BigDecimal(x).round(DIGITS).stripTrailingZeros();
    }

    /** The text of a rounded number. */
    static String text(BigDecimal rounded) {
        if (rounded.signum() == 0) {
            return "0";
        }
        int exponent = rounded.precision() - rounded.scale() - 1;
        return exponent >= -7 && exponent < 15 ? rounded.toPlainString() : rounded.toString().toLowerCase(Locale.ROOT);
    }

    /** Whether {@code x}, rounded, is a whole number that a {@code Long} holds exactly. */
    static boolean isWhole(double x) {
        BigDecimal rounded = round(x);
        return rounded.scale() <= 0 && Math.abs(x) < EXACT_WHOLE;
    }

    /** A generated value at {@code mark}: a {@code Long} when {@code integer}, else the rounded {@code Double}. */
    static Scalar scalar(double x, boolean integer, Mark mark) {
        BigDecimal rounded = round(x);
        if (integer) {
            long whole = rounded.longValueExact();
            return new Scalar(whole, Long.toString(whole), mark);
        }
        return new Scalar(rounded.doubleValue(), text(rounded), mark);
    }
}
