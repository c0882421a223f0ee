package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.gridrun.engine.compress.OrthonormalizerAccess;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PowerSGD's orthonormalisation on the GPU ({@code gr_lowrank_orthonormalize}, one block) gives the host's floats
 * ({@code Orthonormalizer}), Gram-Schmidt (ranks 1, 2) and Householder (3, 5), on factors whose products cancel:
 * values of ±2^40 in chains 0 and 64 with small ones between, so that any other order of the dot products' additions
 * (another tree of the chains) changes the result, not only its last bits.
 */
class CudaOrthonormalizeTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void theGpuOrthonormalisesAsTheHost(GpuTarget target) {
        Gpu gpu = target.open();
        try {
            for (int rows : new int[] {5, 129, 300}) {
                for (int r : new int[] {1, 2, 3, 5}) {
                    float[] p = factor(rows, r, new Random(rows * 7L + r));
                    float[] expected = p.clone();
                    OrthonormalizerAccess.apply(expected, rows, r);
                    long onDevice = gpu.allocate(4L * p.length);
                    long work = gpu.allocate(8L * (2L * rows * r + r));
                    try {
                        gpu.upload(p, 0, onDevice, p.length);
                        CudaPowerSgd.orthonormalize(gpu, onDevice, rows, r, work);
                        float[] actual = new float[p.length];
                        gpu.download(onDevice, actual, 0, actual.length);
                        assertArrayEquals(expected, actual, "rows " + rows + " rank " + r);
                    } finally {
                        gpu.free(onDevice);
                        gpu.free(work);
                    }
                }
            }
        } finally {
            gpu.close();
        }
    }

    /** Columns of small Gaussians with ±2^40 at rows 0 and 64 (the chains a tree meets last) where there are. */
    private static float[] factor(int rows, int r, Random rng) {
        float[] p = new float[rows * r];
        for (int k = 0; k < r; k++) {
            for (int i = 0; i < rows; i++) {
                p[k * rows + i] = (float) rng.nextGaussian();
            }
            p[k * rows] = 0x1p40f;
            if (rows > 64) {
                p[k * rows + 64] = k % 2 == 0 ? -0x1p40f : 0x1p40f;
            }
        }
        return p;
    }
}
