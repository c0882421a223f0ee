package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BitPackerTest {
    private final Random rng = new Random(11);

    @Test
    void everyWidthRoundTripsAtEveryStartOffset() {
        int[] widths = {1, 2, 3, 4, 5, 6, 7, 8, 13, 32};
        int[] lengths = {1, 7, 333, 1001};
        for (int width : widths) {
            for (int length : lengths) {
                for (int start = 0; start < 8; start++) {
                    roundTrip(width, length, start);
                }
            }
        }
    }

    private void roundTrip(int width, int length, int start) {
        int[] codes = new int[length];
        for (int i = 0; i < length; i++) {
            codes[i] = width == 32 ? rng.nextInt() : rng.nextInt(1 << width);
        }
        long bits = start + (long) width * length;
        byte[] bytes = new byte[(int) ((bits + 7) / 8)];
        bytes[0] = (byte) 0xFF;
        BitPacker packer = new BitPacker().reset(bytes, start);
        for (int code : codes) {
            packer.write(code, width);
        }
        packer.flush();
        assertEquals(bits, packer.position());
        String where = "width " + width + ", length " + length + ", start " + start;
        assertEquals((1 << start) - 1, bytes[0] & ((1 << start) - 1), "bits before the start survive: " + where);
        if (bits % 8 != 0) {
            assertEquals(0, (bytes[bytes.length - 1] & 0xFF) >>> (bits % 8), "tail bits are zero: " + where);
        }
        BitReader reader = new BitReader().reset(bytes, start);
        for (int i = 0; i < length; i++) {
            assertEquals(codes[i], reader.read(width), "code " + i + ", " + where);
        }
    }

    @Test
    void layoutIsLeastSignificantBitFirst() {
        byte[] bytes = new byte[2];
        BitPacker packer = new BitPacker().reset(bytes, 0);
        packer.write(0b101, 3);
        packer.write(0b11, 2);
        packer.write(0b1111111, 7);
        packer.flush();
        assertEquals(0b11111101, bytes[0] & 0xFF);
        assertEquals(0b00001111, bytes[1] & 0xFF);
    }

    @Test
    void floatsRoundTrip() {
        byte[] bytes = new byte[9];
        BitPacker packer = new BitPacker().reset(bytes, 3);
        packer.writeFloat(-1.25f);
        packer.writeFloat(Float.MIN_VALUE);
        packer.flush();
        BitReader reader = new BitReader().reset(bytes, 3);
        assertEquals(-1.25f, reader.readFloat());
        assertEquals(Float.MIN_VALUE, reader.readFloat());
    }

    @Test
    void readingPastTheEndFails() {
        BitReader reader = new BitReader().reset(new byte[1], 0);
        reader.read(5);
        assertThrows(IndexOutOfBoundsException.class, () -> reader.read(4));
    }
}
