package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.compress.TensorLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * S2FP8's device codec ({@code cast.cu}) against the CPU codec, through {@link CodecComparison}: payloads byte for byte
 * and the mean of two workers' decoded payloads to the bit, over three steps, with stochastic and nearest rounding, on
 * one flat tensor and on a layout of several, with ±0, subnormals, infinities, NaN, a tensor of one magnitude (squeeze
 * 1) and one of zeros only (α = 1, β = 0), and magnitudes over many octaves.
 */
class CudaS2fp8CodecTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaS2fp8Codec::new, (gpu, codec) -> {
            int bytes = 0;
            for (String rounding : new String[] {"stochastic", "nearest"}) {
                Map<String, Object> params = Map.of("rounding", rounding);
                for (TensorLayout layout : List.of(TensorLayout.flat(1), TensorLayout.flat(7),
                        TensorLayout.flat(20_011), TensorLayout.of(List.of("a", "b", "c", "d"),
                                List.of(new int[] {300}, new int[] {17}, new int[] {40}, new int[] {1000})))) {
                    bytes += CodecComparison.compare(gpu, codec, CodecComparison.workers("s2fp8", params, 2, 2, layout),
                            CodecComparison.workers("s2fp8", params, 2, 2, layout), layout.size(), 3,
                            (step, w, n) -> gradient(layout, new Random(n * 31L + step * 7L + w)),
                            "s2fp8 " + rounding + " " + layout.tensors().size() + " tensors of " + layout.size());
                }
            }
            return bytes;
        });
        assertTrue(compared > 60_000, "compared only " + compared + " bytes");
    }

    private static float[] gradient(TensorLayout layout, Random rng) {
        float[] g = new float[layout.size()];
        for (int i = 0; i < g.length; i++) {
            g[i] = (float) (rng.nextGaussian() * Math.exp(rng.nextGaussian() * 4));
        }
        CodecComparison.zerosAndSubnormals(g);
        if (layout.tensors().size() > 1) {
            TensorLayout.Tensor same = layout.tensors().get(1);
            for (int i = same.offset(); i < same.offset() + same.size(); i++) {
                g[i] = i % 2 == 0 ? 0.75f : -0.75f;
            }
            TensorLayout.Tensor zeros = layout.tensors().get(2);
            for (int i = zeros.offset(); i < zeros.offset() + zeros.size(); i++) {
                g[i] = 0f;
            }
            g[5] = Float.NaN;
            g[9] = Float.NEGATIVE_INFINITY;
            g[layout.size() - 2] = Float.MAX_VALUE;
        }
        return g;
    }
}
