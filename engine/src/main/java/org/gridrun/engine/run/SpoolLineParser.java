package org.gridrun.engine.run;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Parses metric spool lines straight from the spool's bytes: {@code name,step,value,wall_ms,crc32}, the last field
 * the CRC-32 of the line before its last comma in eight lowercase hex digits, or {@code name,step,value,wall_ms}
 * in spools written before the checksum.
 *
 * <p>A spool whose first line is {@link MetricSpool#HEADER} holds only checked lines, and a line whose checksum does
 * not match, or that lacks one, is no record: a line damaged into another valid-looking record is caught. In an
 * older spool ({@link MetricSpool#UNCHECKED_HEADER}, or none) lines of four fields are records as they are, and a
 * checked line, which a newer trainer resuming the run appends, is still verified.
 *
 * <p>Ingest reads millions of lines of a few metric names, so it does not decode each line into a string: the
 * metric names already seen are reused (compared byte for byte), the step and wall time are read digit by digit,
 * and only the value goes through {@link Double#parseDouble}. Anything that is not such a line (the header, a blank
 * or corrupt line) parses to null.
 */
public final class SpoolLineParser {
    /** Names beyond this many are decoded afresh each time rather than remembered. */
    private static final int MAX_NAMES = 256;
    private static final byte[] CHECKED = MetricSpool.HEADER.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNCHECKED = MetricSpool.UNCHECKED_HEADER.getBytes(StandardCharsets.US_ASCII);

    private final boolean checked;
    private final CRC32 crc = new CRC32();
    private final List<byte[]> nameBytes = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    /** A parser for a spool whose lines must all carry a checksum ({@code checked}) or may lack it. */
    public SpoolLineParser(boolean checked) {
        this.checked = checked;
    }

    /** The parser for the spool {@code bytes}: checked when its first line is the checked header. */
    public static SpoolLineParser forSpool(byte[] bytes) {
        return new SpoolLineParser(bytes.length > CHECKED.length && bytes[CHECKED.length] == '\n'
                && Arrays.equals(bytes, 0, CHECKED.length, CHECKED, 0, CHECKED.length));
    }

    /** Whether {@code bytes[from, to)} is a header line, of either form. */
    public static boolean isHeader(byte[] bytes, int from, int to) {
        return Arrays.equals(bytes, from, to, CHECKED, 0, CHECKED.length)
                || Arrays.equals(bytes, from, to, UNCHECKED, 0, UNCHECKED.length);
    }

    /** What a line of this spool must be, for a message about one that is not. */
    public String expected() {
        return checked ? "a record " + MetricSpool.HEADER + " whose checksum matches the line"
                : "a record " + MetricSpool.UNCHECKED_HEADER + "[,crc32]";
    }

    /** The spool line for a record: its fields and their checksum, without a line break. */
    public static String line(String name, long step, double value, long wallMillis) {
        String content = name + "," + step + "," + value + "," + wallMillis;
        return content + "," + LineChecksum.of(content);
    }

    /** The record on the line {@code bytes[from, to)} (without its line break), or null when it holds none. */
    public MetricRecord parse(byte[] bytes, int from, int to) {
        int a = indexOf(bytes, ',', from, to);
        int b = indexOf(bytes, ',', a + 1, to);
        int c = indexOf(bytes, ',', b + 1, to);
        if (a <= from || b < 0 || c < 0) {
            return null;
        }
        int d = indexOf(bytes, ',', c + 1, to);
        int end = d < 0 ? to : d;
        if (d < 0 ? checked : !checksumMatches(bytes, from, d, to)) {
            return null;
        }
        long step = digits(bytes, a + 1, b);
        long wall = digits(bytes, c + 1, end);
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

    /** Whether {@code bytes[comma + 1, to)} is the checksum of {@code bytes[from, comma)}. */
    private boolean checksumMatches(byte[] bytes, int from, int comma, int to) {
        long stated = LineChecksum.value(bytes, comma + 1, to);
        if (stated < 0) {
            return false;
        }
        crc.reset();
        crc.update(bytes, from, comma - from);
        return crc.getValue() == stated;
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
