package org.gridrun.engine.data;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What an image file is, from its first bytes rather than its name (ImageNet has a PNG named {@code .JPEG}), and the
 * little of a JPEG's header that decoding needs: how many colour components it has and its Adobe transform.
 */
final class ImageFormat {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    private static final byte[] ADOBE = "Adobe".getBytes(StandardCharsets.US_ASCII);
    private static final int SOS = 0xDA;
    private static final int EOI = 0xD9;
    private static final int APP14 = 0xEE;

    private ImageFormat() {
    }

    /** Whether the file starts with a JPEG's start-of-image marker. */
    static boolean isJpeg(byte[] bytes, int length) {
        return length >= 3 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xD8 && (bytes[2] & 0xFF) == 0xFF;
    }

    /** Whether the file starts with PNG's signature. */
    static boolean isPng(byte[] bytes, int length) {
        if (length < PNG_SIGNATURE.length) {
            return false;
        }
        for (int i = 0; i < PNG_SIGNATURE.length; i++) {
            if (bytes[i] != PNG_SIGNATURE[i]) {
                return false;
            }
        }
        return true;
    }

    /** The start of a file neither JPEG nor PNG, for a message: {@code empty file} or its first bytes in hex. */
    static String describeStart(byte[] bytes, int length) {
        if (length == 0) {
            return "empty file";
        }
        StringBuilder hex = new StringBuilder("starts with");
        for (int i = 0; i < Math.min(4, length); i++) {
            hex.append(String.format(Locale.ROOT, " %02x", bytes[i] & 0xFF));
        }
        return hex.toString();
    }

    /**
     * Whether a decoder's warning says the data ended early: libjpeg's "Premature end of JPEG file" or ImageIO's
     * "Truncated File - Missing EOI marker". The decoder then fills the missing rows with grey, which Pillow refuses
     * ("image file is truncated"), so the file counts as bad.
     */
    static boolean meansTruncated(String warning) {
        String lower = warning.toLowerCase(Locale.ROOT);
        return lower.contains("premature end of jpeg file") || lower.contains("truncated file");
    }

    /**
     * The frame header's component count (0 when there is none before the scan) and the Adobe marker's transform
     * (−1 when absent) of a JPEG, walking its markers up to the first scan; malformed headers end the walk early
     * and are left for the decoder to report.
     */
    static JpegHeader jpegHeader(byte[] bytes, int length) {
        int components = 0;
        int transform = -1;
        int pos = 2;
        while (pos + 4 <= length && (bytes[pos] & 0xFF) == 0xFF) {
            int marker = bytes[pos + 1] & 0xFF;
            if (marker == 0xFF || marker == 0x01 || marker >= 0xD0 && marker <= 0xD8) {
                pos += marker == 0xFF ? 1 : 2;
                continue;
            }
            if (marker == SOS || marker == EOI) {
                break;
            }
            int data = pos + 4;
            int segment = (bytes[pos + 2] & 0xFF) << 8 | bytes[pos + 3] & 0xFF;
            if (isFrameHeader(marker) && data + 5 < length) {
                components = bytes[data + 5] & 0xFF;
            } else if (marker == APP14 && segment >= 14 && data + 11 < length && startsWith(bytes, data, ADOBE)) {
                transform = bytes[data + 11] & 0xFF;
            }
            pos += 2 + segment;
        }
        return new JpegHeader(components, transform);
    }

    private static boolean isFrameHeader(int marker) {
        return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    }

    private static boolean startsWith(byte[] bytes, int from, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[from + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * What {@link #jpegHeader} found.
     *
     * @param components     the colour components of the frame: 1 grey, 3 YCbCr or RGB, 4 CMYK or YCCK
     * @param adobeTransform the Adobe marker's transform (0 none, 1 YCbCr, 2 YCCK), −1 without the marker
     */
    record JpegHeader(int components, int adobeTransform) {
    }
}
