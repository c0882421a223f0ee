package org.gridrun.engine.run;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The checksum that ends each line gridrun appends to a run directory's files (the metric spool, the status file):
 * the CRC-32 of the line's content before it, as UTF-8, in eight lowercase hex digits. A line damaged on disk then
 * no longer matches its checksum, so a reader tells it from a line that was written.
 */
final class LineChecksum {
    /** The number of hex digits of a checksum. */
    static final int DIGITS = 8;

    private LineChecksum() {
    }

    /** The checksum of {@code content}. */
    static String of(String content) {
        CRC32 crc = new CRC32();
        crc.update(content.getBytes(StandardCharsets.UTF_8));
        String hex = Long.toHexString(crc.getValue());
        return "0".repeat(DIGITS - hex.length()) + hex;
    }

    /** The value of the checksum in {@code bytes[from, to)}, or −1 when that is not eight lowercase hex digits. */
    static long value(byte[] bytes, int from, int to) {
        if (to - from != DIGITS) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int b = bytes[i];
            int digit = b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10 : -1;
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }
}
