package org.gridrun.analysis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gridrun.engine.run.MetricRecord;

/**
 * Parses spool lines {@code name,step,value,wall_ms} straight from the spool's bytes.
 *
 * <p>Ingest reads millions of lines of a few metric names, so it does not decode each line into a string: the
 * metric names already seen are reused (compared byte for byte), the step and wall time are read digit by digit,
 * and only the value goes through {@link Double#parseDouble}. Anything that is not such a line (the header, a blank
 * or corrupt line) parses to null.
 */
final class SpoolLineParser {
    /** Names beyond this many are decoded afresh each time rather than remembered. */
    private static final int MAX_NAMES = 256;

    private final List<byte[]> nameBytes = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    /** The record on the line {@code bytes[from, to)} (without its line break), or null when it holds none. */
    MetricRecord parse(byte[] bytes, int from, int to) {
        int a = indexOf(bytes, ',', from, to);
        int b = indexOf(bytes, ',', a + 1, to);
        int c = indexOf(bytes, ',', b + 1, to);
        if (a <= from || b < 0 || c < 0 || indexOf(bytes, ',', c + 1, to) >= 0) {
            return null;
        }
        long step = digits(bytes, a + 1, b);
        long wall = digits(bytes, c + 1, to);
        if (step == Long.MIN_VALUE || wall == Long.MIN_VALUE) {
            return null;
        }
        double value;
        try {
            value = Double.parseDouble(new String(bytes, b + 1, c - b - 1, StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            return null;
        }
        return new MetricRecord(name(bytes, from, a), step, value, wall);
    }

    private String name(byte[] bytes, int from, int to) {
        for (int i = 0; i < nameBytes.size(); i++) {
            byte[] known = nameBytes.get(i);
            if (Arrays.equals(known, 0, known.length, bytes, from, to)) {
                return names.get(i);
            }
        }
        String name = new String(bytes, from, to - from, StandardCharsets.UTF_8);
        if (names.size() < MAX_NAMES) {
            nameBytes.add(Arrays.copyOfRange(bytes, from, to));
            names.add(name);
        }
        return name;
    }

    /** The decimal integer in {@code bytes[from, to)}, optionally signed; Long.MIN_VALUE when it is not one. */
    private static long digits(byte[] bytes, int from, int to) {
        boolean negative = from < to && bytes[from] == '-';
        int start = negative ? from + 1 : from;
        if (start == to || to - start > 18) {
            return to - start > 18 ? parseLong(bytes, from, to) : Long.MIN_VALUE;
        }
        long value = 0;
        for (int i = start; i < to; i++) {
            int d = bytes[i] - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            value = value * 10 + d;
        }
        return negative ? -value : value;
    }

    /** Long.parseLong for numbers too long for the digit loop to add up without overflow. */
    private static long parseLong(byte[] bytes, int from, int to) {
        try {
            return Long.parseLong(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    private static int indexOf(byte[] bytes, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == c) {
                return i;
            }
        }
        return -1;
    }
}
