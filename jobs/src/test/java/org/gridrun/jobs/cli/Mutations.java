package org.gridrun.jobs.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Damaged copies of a good file, drawn with a seeded {@link Random}: what the fuzz tests of gridrun's readers hand
 * them. The kinds take turns, so every kind is drawn about equally often; every copy differs from the file. Text
 * formats get three kinds more ({@link #ofText}).
 */
final class Mutations {
    /** How a copy is damaged. */
    enum Kind {
        /** cut short at a random length, empty included */
        TRUNCATE,
        /** one to four bytes XOR-ed with a random non-zero byte */
        FLIP,
        /** one to sixteen random bytes inserted at a random place */
        INSERT,
        /** one to sixteen bytes deleted at a random place */
        DELETE,
        /** the first one to eight bytes overwritten: another format's magic, or noise */
        HEADER,
        /** a declared size made huge: a size field of the binary format, or a number in a text one */
        HUGE_SIZE,
        /** (text) one to eight NUL bytes inserted at a random place */
        NUL,
        /** (text) a byte sequence that is not UTF-8 inserted at a random place */
        INVALID_UTF8,
        /** (text) a line of about a million bytes inserted at a random line start: one word, or many */
        HUGE_LINE
    }

    /** The kinds that fit any format, which {@link #of} draws. */
    private static final List<Kind> ANY_FORMAT = List.of(Kind.TRUNCATE, Kind.FLIP, Kind.INSERT, Kind.DELETE,
            Kind.HEADER, Kind.HUGE_SIZE);
    private static final byte[][] NOT_UTF8 = {{(byte) 0x80}, {(byte) 0xC3, '('}, {(byte) 0xC0, (byte) 0xAF},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
        {(byte) 0xFF}, {(byte) 0xE2, (byte) 0x82}};

    /**
     * One damaged copy.
     *
     * @param kind  how it was damaged
     * @param bytes the damaged content
     */
    record Mutation(Kind kind, byte[] bytes) {
    }

    private static final Pattern NUMBER = Pattern.compile("\\d+");
    private static final byte[][] OTHER_MAGICS = {{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'}, {0x1f, (byte) 0x8b},
        {'G', 'R', 'C', 'K'}, {(byte) 0x89, 'P', 'N', 'G'}, {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF}, {0, 0, 8, 3},
        {'P', 'K', 3, 4}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}};

    private final Random random;
    private final int[] sizeFields;

    /**
     * Mutations drawn from {@code seed}; {@code sizeFields} are the byte offsets of the format's 4-byte size fields
     * (none for a text format, whose numbers are made huge instead).
     */
    Mutations(long seed, int... sizeFields) {
        this.random = new Random(seed);
        this.sizeFields = sizeFields.clone();
    }

    /** {@code count} damaged copies of {@code good}, the kinds that fit any format in turn. */
    List<Mutation> of(byte[] good, int count) {
        return of(good, count, ANY_FORMAT);
    }

    /** {@code count} damaged copies of the text {@code good}, every kind in turn. */
    List<Mutation> ofText(byte[] good, int count) {
        return of(good, count, List.of(Kind.values()));
    }

    private List<Mutation> of(byte[] good, int count, List<Kind> kinds) {
        List<Mutation> mutations = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Kind kind = kinds.get(i % kinds.size());
            byte[] bytes = damage(kind, good);
            while (Arrays.equals(bytes, good)) {
                bytes = damage(Kind.FLIP, good);
            }
            mutations.add(new Mutation(kind, bytes));
        }
        return mutations;
    }

    private byte[] damage(Kind kind, byte[] good) {
        return switch (kind) {
            case TRUNCATE -> Arrays.copyOf(good, random.nextInt(good.length));
            case FLIP -> flip(good);
            case INSERT -> insert(good);
            case DELETE -> delete(good);
            case HEADER -> header(good);
            case HUGE_SIZE -> huge(good);
            case NUL -> insert(good, new byte[1 + random.nextInt(8)], random.nextInt(good.length + 1));
            case INVALID_UTF8 -> insert(good, NOT_UTF8[random.nextInt(NOT_UTF8.length)],
                    random.nextInt(good.length + 1));
            case HUGE_LINE -> insert(good, hugeLine(good), lineStart(good));
        };
    }

    private static byte[] insert(byte[] good, byte[] what, int at) {
        byte[] b = new byte[good.length + what.length];
        System.arraycopy(good, 0, b, 0, at);
        System.arraycopy(what, 0, b, at, what.length);
        System.arraycopy(good, at, b, at + what.length, good.length - at);
        return b;
    }

    /** About a million bytes and a line break: one word of a letter, or the good text's words on one line. */
    private byte[] hugeLine(byte[] good) {
        StringBuilder line = new StringBuilder(1 << 20);
        String words = new String(good, StandardCharsets.UTF_8).replace('\n', ' ');
        String unit = random.nextBoolean() ? "w" : words;
        while (line.length() < 1 << 20) {
            line.append(unit);
        }
        return line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    private int lineStart(byte[] good) {
        List<Integer> starts = new ArrayList<>(List.of(0));
        for (int i = 0; i < good.length; i++) {
            if (good[i] == '\n') {
                starts.add(i + 1);
            }
        }
        return starts.get(random.nextInt(starts.size()));
    }

    private byte[] flip(byte[] good) {
        byte[] b = good.clone();
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
            b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(255));
        }
        return b;
    }

    private byte[] insert(byte[] good) {
        byte[] noise = new byte[1 + random.nextInt(16)];
        random.nextBytes(noise);
        return insert(good, noise, random.nextInt(good.length + 1));
    }

    private byte[] delete(byte[] good) {
        int n = Math.min(good.length, 1 + random.nextInt(16));
        int at = random.nextInt(good.length - n + 1);
        byte[] b = new byte[good.length - n];
        System.arraycopy(good, 0, b, 0, at);
        System.arraycopy(good, at + n, b, at, good.length - at - n);
        return b;
    }

    private byte[] header(byte[] good) {
        byte[] b = good.clone();
        byte[] with = OTHER_MAGICS[random.nextInt(OTHER_MAGICS.length)];
        if (random.nextInt(3) == 0) {
            with = new byte[1 + random.nextInt(8)];
            random.nextBytes(with);
        }
        System.arraycopy(with, 0, b, 0, Math.min(with.length, b.length));
        return b;
    }

    private byte[] huge(byte[] good) {
        if (sizeFields.length > 0) {
            byte[] b = good.clone();
            int at = sizeFields[random.nextInt(sizeFields.length)];
            int value = switch (random.nextInt(4)) {
                case 0 -> Integer.MAX_VALUE;
                case 1 -> -1;
                case 2 -> Integer.MIN_VALUE;
                default -> 1 << (20 + random.nextInt(11));
            };
            for (int k = 0; k < 4 && at + k < b.length; k++) {
                b[at + k] = (byte) (value >>> (24 - 8 * k));
            }
            return b;
        }
        String text = new String(good, StandardCharsets.ISO_8859_1);
        List<int[]> numbers = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            numbers.add(new int[] {m.start(), m.end()});
        }
        if (numbers.isEmpty()) {
            return flip(good);
        }
        int[] pick = numbers.get(random.nextInt(numbers.size()));
        String huge = random.nextBoolean() ? "9".repeat(10 + random.nextInt(30)) : String.valueOf(Integer.MAX_VALUE);
        return (text.substring(0, pick[0]) + huge + text.substring(pick[1])).getBytes(StandardCharsets.ISO_8859_1);
    }
}
