package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Random;
import org.gridrun.engine.compress.ChainSums;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The device's chunked chain sums ({@code chains.cu}, {@link CudaChainSums}) add in the host's order
 * ({@link ChainSums#sumOfSquares}) on values whose sum shows that order: in two chains of each chunk two ones come
 * before a square of 1e16, which they move to 1e16 + 2, while after it each of them rounds away (ties to even). In
 * one chain the three fall in a group of eight values a thread loads before adding them, in the other in the tail
 * after the groups (where a chunk has room for them); one or two levels of chunks.
 */
class CudaChainSumsTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void theDeviceAddsEachChainInTheHostsOrder(GpuTarget target) {
        Random rng = new Random(5);
        Gpu gpu = target.open();
        try (CudaChainSums sums = new CudaChainSums(gpu)) {
            for (int length : new int[] {300, 1300, 8192, 8192 * 3 + 1300, 8192 * 128 + 1}) {
                float[] g = new float[length];
                for (int i = 0; i < length; i++) {
                    g[i] = (float) (rng.nextGaussian() * 1e-3);
                }
                for (int chunk = 0; chunk * 8192 < length; chunk++) {
                    int end = Math.min(length, chunk * 8192 + 8192);
                    plant(g, chunk * 8192 + 5, end, 0, 1, 7);
                    plant(g, chunk * 8192 + 9, end, 8, 9, 10);
                }
                long address = gpu.allocate(4L * length);
                long out = gpu.allocate(8);
                try {
                    gpu.upload(g, 0, address, length);
                    sums.sum(address, length, CudaChainSums.Term.SQUARE, out);
                    double device = Double.longBitsToDouble(Upload.downloadLong(gpu, out));
                    double host = ChainSums.sumOfSquares(g, 0, length);
                    assertEquals(host, device, "length " + length);
                    if (length >= 1300) {
                        assertNotEquals(reversed(g), host, "length " + length + ": the values do not show the order");
                    }
                } finally {
                    gpu.free(address);
                    gpu.free(out);
                }
            }
        } finally {
            gpu.close();
        }
    }

    /**
     * 1, 1 and 1e8 at values {@code a}, {@code b} and {@code c} of the chain whose first value is at {@code at}, where
     * all three lie before {@code end}.
     */
    private static void plant(float[] g, int at, int end, int a, int b, int c) {
        if (at + 128 * c < end) {
            g[at + 128 * a] = 1f;
            g[at + 128 * b] = 1f;
            g[at + 128 * c] = 1e8f;
        }
    }

    /** The host's sum with each chain added last value first: what a device adding out of order would give. */
    private static double reversed(float[] g) {
        float[] r = new float[g.length];
        for (int chunk = 0; chunk * 8192 < g.length; chunk++) {
            int from = chunk * 8192;
            int to = Math.min(g.length, from + 8192);
            for (int j = 0; j < 128 && from + j < to; j++) {
                int count = (to - from - j + 127) / 128;
                for (int k = 0; k < count; k++) {
                    r[from + j + 128 * k] = g[from + j + 128 * (count - 1 - k)];
                }
            }
        }
        return ChainSums.sumOfSquares(r, 0, r.length);
    }
}
