package org.gridrun.grids;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.grids.yaml.Mark;
import org.gridrun.grids.yaml.Scalar;

/**
 * The evenly spaced generators, {@code range}, {@code linspace}, {@code logspace} and {@code geomspace}, on
 * arguments already known to be a list of scalars of the right length (see {@link Generators}).
 */
final class Spacing {
    private final String name;
    private final Mark mark;
    private final ProblemList problems;

    /**
     * @param name the generator's name, for messages
     * @param mark where the generator was written: the place of every value it gives
     */
    Spacing(String name, Mark mark, ProblemList problems) {
        this.name = name;
        this.mark = mark;
        this.problems = problems;
    }

    /** {@code [start, stop]} or {@code [start, stop, step]}: start, start + step, … up to, not including, stop. */
    List<Scalar> range(List<Scalar> args) {
        Scalar step = args.size() == 3 ? args.get(2) : new Scalar(1L, "1", mark);
        if (args.get(0).value() instanceof Long a && args.get(1).value() instanceof Long b
                && step.value() instanceof Long s) {
            return integerRange(a, b, s, step);
        }
        Double a = number(args.get(0), "start");
        Double b = number(args.get(1), "stop");
        Double s = number(step, "step");
        if (a == null || b == null || s == null || !nonZeroStep(s, step)) {
            return List.of();
        }
        double count = Math.ceil((b - a) / s);
        if (!enough(count, args.get(0), args.get(1), step) || !notTooMany(count)) {
            return List.of();
        }
        List<Scalar> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(Numbers.scalar(a + i * s, false, mark));
        }
        return values;
    }

    /** {@code [start, stop, num]}: num values from start to stop, both included, evenly spaced. */
    List<Scalar> linspace(List<Scalar> args) {
        Double a = number(args.get(0), "start");
        Double b = number(args.get(1), "stop");
        Integer n = num(args.get(2));
        if (a == null || b == null || n == null) {
            return List.of();
        }
        return scalars(spaced(a, b, n), args);
    }

    /** {@code [startExp, stopExp, num]}: 10 to the power of num evenly spaced exponents. */
    List<Scalar> logspace(List<Scalar> args) {
        Double a = number(args.get(0), "startExp");
        Double b = number(args.get(1), "stopExp");
        Integer n = num(args.get(2));
        if (a == null || b == null || n == null) {
            return List.of();
        }
        double[] values = spaced(a, b, n);
        for (int i = 0; i < n; i++) {
            values[i] = Math.pow(10, values[i]);
        }
        return finite(values) ? scalars(values, args) : List.of();
    }

    /** {@code [start, stop, num]}: num values from start to stop, both included, in geometric progression. */
    List<Scalar> geomspace(List<Scalar> args) {
        Double a = number(args.get(0), "start");
        Double b = number(args.get(1), "stop");
        Integer n = num(args.get(2));
        if (a == null || b == null || n == null) {
            return List.of();
        }
        if (a == 0 || b == 0 || a < 0 != b < 0) {
            problems.add(args.get(0).mark(), "geomspace: start and stop must be non-zero and of the same sign,"
                    + " found " + args.get(0).text() + " and " + args.get(1).text());
            return List.of();
        }
        double sign = Math.signum(a);
        double[] values = spaced(Math.log10(Math.abs(a)), Math.log10(Math.abs(b)), n);
        for (int i = 0; i < n; i++) {
            values[i] = sign * Math.pow(10, values[i]);
        }
        values[0] = a;
        values[n - 1] = b;
        return scalars(values, args);
    }

    private List<Scalar> integerRange(long a, long b, long s, Scalar step) {
        if (!nonZeroStep(s, step)) {
            return List.of();
        }
        BigInteger span = BigInteger.valueOf(b).subtract(BigInteger.valueOf(a));
        BigInteger[] qr = span.divideAndRemainder(BigInteger.valueOf(s));
        BigInteger count = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
        double n = count.signum() <= 0 ? 0 : count.bitLength() > 62 ? Double.MAX_VALUE : count.longValue();
        if (!enough(n, new Scalar(a, Long.toString(a), mark), new Scalar(b, Long.toString(b), mark), step)
                || !notTooMany(n)) {
            return List.of();
        }
        List<Scalar> values = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            long value = a + i * s;
            values.add(new Scalar(value, Long.toString(value), mark));
        }
        return values;
    }

    private boolean nonZeroStep(double s, Scalar step) {
        if (s == 0) {
            problems.add(step.mark(), name + ": step must not be 0");
            return false;
        }
        return true;
    }

    private boolean enough(double count, Scalar start, Scalar stop, Scalar step) {
        if (count >= 1) {
            return true;
        }
        boolean up = ((Number) step.value()).doubleValue() > 0;
        problems.add(mark, name + " gives no values: with step " + step.text() + ", stop (" + stop.text()
                + ") must be " + (up ? "above" : "below") + " start (" + start.text() + ")");
        return false;
    }

    private boolean notTooMany(double count) {
        if (count <= Generators.MAX_VALUES) {
            return true;
        }
        problems.add(mark, name + " gives " + (count >= Long.MAX_VALUE ? "too many" : Long.toString((long) count))
                + " values; a generator gives at most " + Generators.MAX_VALUES);
        return false;
    }

    private boolean finite(double[] values) {
        for (double value : values) {
            if (!Double.isFinite(value) || value == 0 && !Double.isFinite(1 / value)) {
                problems.add(mark, name + ": a value is beyond the range of a double; use smaller exponents");
                return false;
            }
        }
        return true;
    }

    /** The values as scalars: integers when every argument is an integer and every value whole. */
    private List<Scalar> scalars(double[] values, List<Scalar> args) {
        boolean integer = args.stream().allMatch(arg -> arg.value() instanceof Long);
        for (double value : values) {
            integer &= Numbers.isWhole(value);
        }
        List<Scalar> scalars = new ArrayList<>(values.length);
        for (double value : values) {
            scalars.add(Numbers.scalar(value, integer, mark));
        }
        return scalars;
    }

    /** numpy's linspace: start + i * step, the last value exactly stop. */
    private static double[] spaced(double start, double stop, int num) {
        double[] values = new double[num];
        double step = num > 1 ? (stop - start) / (num - 1) : 0;
        for (int i = 0; i < num; i++) {
            values[i] = start + i * step;
        }
        if (num > 1) {
            values[num - 1] = stop;
        }
        return values;
    }

    private Double number(Scalar arg, String field) {
        if (arg.value() instanceof Long || arg.value() instanceof Double) {
            double value = ((Number) arg.value()).doubleValue();
            if (Double.isFinite(value)) {
                return value;
            }
            problems.add(arg.mark(), name + ": " + field + " must be a finite number, found " + arg.describe());
            return null;
        }
        problems.add(arg.mark(), name + ": " + field + " must be a number, found " + arg.describe());
        return null;
    }

    private Integer num(Scalar arg) {
        if (arg.value() instanceof Long n && n >= 1 && n <= Generators.MAX_VALUES) {
            return n.intValue();
        }
        problems.add(arg.mark(), name + ": num must be an integer from 1 to " + Generators.MAX_VALUES + ", found "
                + arg.describe());
        return null;
    }
}
