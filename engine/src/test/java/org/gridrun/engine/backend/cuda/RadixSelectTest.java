package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The radix select ({@link RadixSelect}) leaves {k-th largest key, its mask, keys above it} on the device, the keys
 * ranked as top-k ranks them (the bits of the magnitude, every NaN one above infinity): on few blocks, so that each
 * thread counts many values four at a time and the tails of its last four, and on as many blocks as the codecs use.
 */
class RadixSelectTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void selectsTheKthLargestKey(GpuTarget target) {
        Random rng = new Random(9);
        Gpu gpu = target.open();
        try {
            for (int countBlocks : new int[] {1, 3, 1024}) {
                RadixSelect select = new RadixSelect(gpu, countBlocks);
                try {
                    for (int n : new int[] {1, 255, 5000, 13_001}) {
                        float[] values = new float[n];
                        for (int i = 0; i < n; i++) {
                            // repeated magnitudes, so that keys tie at the k-th
                            values[i] = (float) Math.round(rng.nextGaussian() * 50) / 8f;
                        }
                        values[n / 2] = Float.NaN;
                        if (n > 2) {
                            values[n / 3] = Float.NEGATIVE_INFINITY;
                        }
                        for (int k : new int[] {1, Math.max(1, n / 100), Math.max(1, n / 2), n}) {
                            long address = gpu.allocate(4L * n);
                            try {
                                gpu.upload(values, 0, address, n);
                                long at = select.select(address, n, k);
                                byte[] state = new byte[12];
                                gpu.downloadBytes(at, state, 12);
                                ByteBuffer b = ByteBuffer.wrap(state).order(ByteOrder.LITTLE_ENDIAN);
                                assertArrayEquals(expected(values, k), new int[] {b.getInt(), b.getInt(), b.getInt()},
                                        "n " + n + ", k " + k + ", " + countBlocks + " blocks");
                            } finally {
                                gpu.free(address);
                            }
                        }
                    }
                } finally {
                    select.free();
                }
            }
        } finally {
            gpu.close();
        }
    }

    /** The k-th largest key, the mask of all its bits, and how many keys are above it. */
    private static int[] expected(float[] values, int k) {
        int[] keys = new int[values.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = Math.min(Float.floatToRawIntBits(values[i]) & 0x7FFFFFFF, 0x7F800001);
        }
        Arrays.sort(keys);
        int kth = keys[keys.length - k];
        int above = 0;
        for (int key : keys) {
            above += key > kth ? 1 : 0;
        }
        return new int[] {kth, -1, above};
    }
}
