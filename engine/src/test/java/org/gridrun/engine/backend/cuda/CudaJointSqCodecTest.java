package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.compress.TensorLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * JointSQ's device codec ({@code jointsq.cu}) against the CPU codec, through {@link CodecComparison}: payloads byte for
 * byte (so also their sizes, side bits, width maps in both modes and the allocation search's choices), the mean of two
 * workers' decoded payloads to the bit, over three steps (the residual carried in the slot), and the saved state
 * (the residual fetched from the slot) after them.
 */
class CudaJointSqCodecTest {
    private static final long SEED = 13;
    private static final int WORKERS = 2;

    /**
     * Rates from one that sends almost nothing to one that sends every value in 8 bits, on one flat tensor of 1 to
     * 20,011 values and on a model-like layout (a convolution, its bias, a one-value tensor, a dense layer), with
     * heavy-tailed values, ±0 and subnormals, a tensor that is all zeros, one with a NaN and one with an infinity
     * (which send nothing), and tied magnitudes (every value in one bin, so the 2-bit quota splits a bin).
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsMeansAndResidualsAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaJointSqCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (double rate : new double[] {1e-4, 0.032, 0.2, 1.0}) {
                for (int length : new int[] {1, 7, 1001, 20_011}) {
                    bytes += compare(gpu, codec, rate, TensorLayout.flat(length), 3);
                }
                bytes += compare(gpu, codec, rate, modelLike(), 3);
            }
            return bytes;
        });
        assertTrue(compared > 60_000, "compared only " + compared + " bytes");
    }

    /**
     * Magnitudes over 120 octaves (about 1,900 non-empty bins, so the search refines its coarse grid around the best
     * pair) and 300 small tensors (more than the search's blocks, each looping over several tensors).
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void wideMagnitudesAndManyTensors(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaJointSqCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (double rate : new double[] {0.032, 0.3}) {
                bytes += compare(gpu, codec, rate, TensorLayout.flat(30_011), 2);
                bytes += compare(gpu, codec, rate, manyTensors(300), 2);
            }
            return bytes;
        });
        assertTrue(compared > 10_000, "compared only " + compared + " bytes");
    }

    /**
     * The paper's knapsack ({@code allocation: knapsack}): its sampled threshold (samples of 1 % and of every value),
     * its bracketing passes and its cut at the budget, on the same tensors and rates as the search.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void theKnapsacksPayloadsMeansAndResidualsAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaJointSqCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (double sampleRatio : new double[] {0.01, 1.0}) {
                for (double rate : new double[] {1e-4, 0.032, 0.2, 1.0}) {
                    Map<String, Object> params = Map.of("rate", rate, "allocation", "knapsack",
                            "sample_ratio", sampleRatio);
                    for (TensorLayout layout : List.of(TensorLayout.flat(1), TensorLayout.flat(1001),
                            TensorLayout.flat(20_011), modelLike())) {
                        bytes += compare(gpu, codec, params, layout, 2);
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > 20_000, "compared only " + compared + " bytes");
    }

    /**
     * Three magnitudes in a de Bruijn order (every width follows every width equally often), so that a context's
     * frequencies tie after scaling and the remainder of 2^12 goes to the first largest, as the host's map gives it.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void tiedFrequenciesGiveTheRemainderAsTheHostDoes(GpuTarget target) {
        float[] magnitudes = {1e-4f, 0.1f, 1f};
        int[] order = {0, 0, 1, 0, 2, 1, 1, 2, 2};
        int compared = CodecComparison.onCodec(target, CudaJointSqCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (double rate : new double[] {0.05, 0.2}) {
                for (int length : new int[] {900, 2_000}) {
                    Map<String, Object> params = Map.of("rate", rate);
                    bytes += CodecComparison.compare(gpu, codec, CodecComparison.workers("jointsq", params, SEED, 1),
                            CodecComparison.workers("jointsq", params, SEED, 1), length, 1, (step, w, n) -> {
                                float[] g = new float[n];
                                for (int i = 0; i < n; i++) {
                                    g[i] = (i % 2 == 0 ? 1 : -1) * magnitudes[order[i % order.length]];
                                }
                                return g;
                            }, "jointsq de Bruijn rate " + rate + " length " + length);
                }
            }
            return bytes;
        });
        assertTrue(compared > 1_000, "compared only " + compared + " bytes");
    }

    private static int compare(Gpu gpu, CudaDeviceCodec codec, double rate, TensorLayout layout, int steps) {
        return compare(gpu, codec, Map.of("rate", rate), layout, steps);
    }

    private static int compare(Gpu gpu, CudaDeviceCodec codec, Map<String, Object> params, TensorLayout layout,
                               int steps) {
        return CodecComparison.compare(gpu, codec, CodecComparison.workers("jointsq", params, SEED, WORKERS, layout),
                CodecComparison.workers("jointsq", params, SEED, WORKERS, layout), layout.size(), steps,
                (step, w, n) -> gradient(layout, step, w),
                "jointsq " + params + " tensors " + layout.tensors().size() + " length " + layout.size());
    }

    /** A convolution 16×3×3×3, its bias, a one-value tensor, a dense layer 10×64 and its bias. */
    private static TensorLayout modelLike() {
        return TensorLayout.of(List.of("conv", "bias", "scalar", "fc", "fc_bias"),
                List.of(new int[] {16, 3, 3, 3}, new int[] {16}, new int[] {1}, new int[] {10, 64}, new int[] {10}));
    }

    private static TensorLayout manyTensors(int count) {
        List<String> names = new ArrayList<>();
        List<int[]> shapes = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            names.add("t" + t);
            shapes.add(new int[] {1 + (t * 37) % 200});
        }
        return TensorLayout.of(names, shapes);
    }

    /** Worker {@code w}'s gradient at {@code step}: each tensor of the layout gets a kind of its own. */
    private static float[] gradient(TensorLayout layout, int step, int w) {
        float[] g = new float[layout.size()];
        Random rng = new Random(layout.size() * 31L + step * 7L + w);
        int index = 0;
        for (TensorLayout.Tensor t : layout.tensors()) {
            int kind = layout.tensors().size() == 1 ? 0 : (index + step) % 6;
            fill(g, t.offset(), t.size(), kind, rng);
            index++;
        }
        if (layout.tensors().size() == 1) {
            if (layout.size() > 30_000) {
                for (int i = 0; i < g.length; i++) {
                    g[i] = (float) (Math.scalb(1.0, rng.nextInt(240) - 120) * (rng.nextBoolean() ? 1 : -1)
                            * (1 + rng.nextDouble()));
                }
            } else {
                CodecComparison.zerosAndSubnormals(g);
            }
        }
        return g;
    }

    private static void fill(float[] g, int from, int n, int kind, Random rng) {
        for (int i = from; i < from + n; i++) {
            double heavy = rng.nextGaussian() * -Math.log(1 - rng.nextDouble()) * 1e-2;
            g[i] = switch (kind) {
                case 0, 4 -> (float) heavy;
                case 1 -> 0f;
                case 2 -> i == from + n / 2 ? Float.NaN : (float) heavy;
                case 3 -> i == from ? Float.NEGATIVE_INFINITY : (float) heavy;
                default -> rng.nextBoolean() ? 0.375f : -0.375f;
            };
        }
    }
}
