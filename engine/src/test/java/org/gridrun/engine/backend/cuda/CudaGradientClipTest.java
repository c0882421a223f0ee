package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.train.GradientClip;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Gradient clipping on the device ({@code CudaGradientClip}) writes the host's {@link GradientClip} bits: norms above
 * and below the bound, one value to three levels of chunked partial sums, and a NaN or an infinity in the gradient.
 */
class CudaGradientClipTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void theDeviceClipsAsTheHost(GpuTarget target) {
        Random rng = new Random(41);
        int clipped = 0;
        Gpu gpu = target.open();
        try (CudaDeviceCodec codec = new CudaDeviceCodec(List.of(), new CudaGradientClip(gpu))) {
            assertTrue(codec.clipsNorms());
            for (int length : new int[] {1, 7, 8193, 300_007}) {
                for (double max : new double[] {1e-3, 0.25, 1e6}) {
                    for (int edge = 0; edge < 3; edge++) {
                        float[] g = new float[length];
                        for (int i = 0; i < length; i++) {
                            g[i] = (float) (rng.nextGaussian() * 0.01);
                        }
                        if (edge == 1) {
                            g[length / 2] = Float.NaN;
                        } else if (edge == 2) {
                            g[length / 3] = Float.POSITIVE_INFINITY;
                        }
                        long address = gpu.allocate(4L * length);
                        try {
                            gpu.upload(g, 0, address, length);
                            codec.clipNorm(0, Tensor.owning(new CudaBuffer(gpu, address, length), 1, length), max);
                            float[] actual = new float[length];
                            gpu.download(address, actual, 0, length);
                            float before = g[0];
                            GradientClip.clip(g, max);
                            clipped += edge == 0 && g[0] != before ? 1 : 0;
                            assertArrayEquals(bits(g), bits(actual), "length " + length + ", max " + max
                                    + ", edge " + edge);
                        } finally {
                            gpu.free(address);
                        }
                    }
                }
            }
        } finally {
            gpu.close();
        }
        // norms about 0.01·√length: all four lengths exceed 1e-3, the two longest 0.25, none 1e6
        assertEquals(6, clipped, "finite gradients clipped");
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Float.floatToRawIntBits(v[i]);
        }
        return b;
    }
}
