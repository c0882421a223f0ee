package org.gridrun.reports;

import java.util.Locale;
import org.gridrun.analysis.SeedSummary;

/**
 * How the report writes numbers: fixed decimals in the root locale, a dash for a missing value.
 */
final class Formats {
    /** What a cell shows when there is no value. */
    static final String MISSING = "—";
    /** Accuracies ({@code Vacc}) are recorded as fractions in [0, 1] and shown in percent. */
    static final double PERCENT = 100.0;
    private static final String[] BIT_UNITS = {"bit", "kbit", "Mbit", "Gbit", "Tbit"};

    private Formats() {
    }

    /** {@code mean ± std} with two decimals after multiplying by {@code scale}; only the mean below two seeds. */
    static String meanStd(SeedSummary summary, double scale) {
        if (summary.n() == 0 || Double.isNaN(summary.mean())) {
            return MISSING;
        }
        String mean = fixed(summary.mean() * scale, 2);
        return Double.isNaN(summary.std()) ? mean : mean + " ± " + fixed(summary.std() * scale, 2);
    }

    /** {@code mean ± std} in three significant digits ({@code 4.06e-06 ± 3.4e-07}); only the mean below two seeds. */
    static String meanStdSci(SeedSummary summary) {
        if (summary.n() == 0 || Double.isNaN(summary.mean())) {
            return MISSING;
        }
        String mean = String.format(Locale.ROOT, "%.3g", summary.mean());
        return Double.isNaN(summary.std()) ? mean : mean + " ± " + String.format(Locale.ROOT, "%.2g", summary.std());
    }

    /** A bit count in decimal units: {@code 512 bit}, {@code 203.5 kbit}, {@code 1.2 Mbit}. */
    static String bits(double bits) {
        if (Double.isNaN(bits)) {
            return MISSING;
        }
        int unit = 0;
        double value = bits;
        while (Math.abs(value) >= 1000 && unit < BIT_UNITS.length - 1) {
            value /= 1000;
            unit++;
        }
        return fixed(value, unit == 0 ? 0 : 1) + " " + BIT_UNITS[unit];
    }

    /**
     * A measured value for tables: an integer as it is, otherwise four significant digits; {@code NaN} (a diverged
     * run) and infinities as Java writes them.
     */
    static String number(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%.4g", value);
    }

    /** A number with {@code decimals} decimals, or {@link #MISSING} for NaN. */
    static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? MISSING : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
