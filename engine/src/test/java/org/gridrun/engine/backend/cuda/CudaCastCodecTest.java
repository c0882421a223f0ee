package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.backend.CastFormat;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.FloatFormat;
import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The casts' device codec ({@code cast.cu}) against the CPU codec: payloads byte for byte, and the mean of the decoded
 * payloads of two workers to the bit, for fp16, bf16 and fp8 with stochastic and nearest rounding, on odd lengths over
 * two consecutive steps (the second starts later in the random stream), on gradients whose values span every float32
 * binade (subnormals in float32 and in the format, values beyond the format's range, overflow to infinity), with NaN,
 * ±0, ±∞, each format's largest value and the values around it, and exact ties between two codes, normal and subnormal.
 */
class CudaCastCodecTest {
    private static final long SEED = 91;
    private static final int WORKERS = 2;

    /** Values that sit on each format's edges: ties (to even and to odd), saturation, the normal range's bottom. */
    private static final float[] EDGES = {Float.NaN, Float.POSITIVE_INFINITY, 0f, Float.MIN_VALUE,
            Float.MIN_NORMAL, Float.MAX_VALUE, 1f,
            // fp16: ties above 1 and 2048, its largest value, the halfway point above it, the bottom of its normals
            1 + 0x1p-11f, 1 + 3 * 0x1p-11f, 2049f, 65504f, 65519.99f, 65520f, 0x1p-14f, 0x1p-14f - 0x1p-26f,
            // fp16 subnormal ties: between 0 and 2^-24, and between 2^-24 and 2^-23
            0x1p-25f, 3 * 0x1p-25f, 0x1p-24f,
            // bf16: ties, its largest value and above, its subnormal ties (float32 subnormals)
            1 + 0x1p-8f, 1 + 3 * 0x1p-8f, 0x1.FEp127f, 0x1.FFp127f, 0x1p-134f, 3 * 0x1p-134f, 0x1p-133f,
            // fp8 E5M2: ties, its largest value and the halfway point above it, subnormal ties
            1 + 0x1p-3f, 1 + 3 * 0x1p-3f, 57344f, 61440f, 0x1p-17f, 3 * 0x1p-17f, 0x1p-16f, 0x1p-14f - 0x1p-17f};

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaCastCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (String method : List.of("fp16", "bf16", "fp8")) {
                for (String rounding : List.of("stochastic", "nearest")) {
                    Map<String, Object> params = Map.of("rounding", rounding);
                    for (int length : new int[] {1, 7, 1001, 20_011}) {
                        bytes += CodecComparison.compare(gpu, codec,
                                CodecComparison.workers(method, params, SEED, WORKERS),
                                CodecComparison.workers(method, params, SEED, WORKERS), length, 2,
                                (step, w, n) -> gradient(n, new Random(n * 13L + step * 5L + w)),
                                method + " " + rounding + " length " + length);
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > 200_000, "compared only " + compared + " bytes");
    }

    /**
     * Stochastic rounding decides as the host's {@link FloatFormat#encode} at the uniforms where it flips: for every
     * edge value and the floats at and beside each power of two, the first uniform that rounds up and the one before
     * it, and the extreme uniforms (where the subnormal path's double sum rounds to 1), handed to the kernel through a
     * key whose first draw is those uniforms.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void stochasticRoundingFlipsWhereTheHostsDoes(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaCastCodec::new, (gpu, codec) -> {
            long values = gpu.allocate(8);
            try {
                return flips(gpu, codec, values);
            } finally {
                gpu.free(values);
            }
        });
        assertTrue(compared > 10_000, "compared only " + compared + " codes");
    }

    /** The kernel's stochastic codes against the host's at the flip candidates' uniforms; returns the codes compared. */
    private static int flips(Gpu gpu, CudaDeviceCodec codec, long values) {
        int compared = 0;
        Tensor gradient = Tensor.owning(new CudaBuffer(gpu, values, 2), 1, 2);
        for (FloatFormat format : List.of(FloatFormat.FP16, FloatFormat.BF16, FloatFormat.E5M2)) {
            CastFormat cast = new CastFormat(format.exponentBits(), format.mantissaBits(), true, 2);
            for (float x : flipCandidates()) {
                long flip = firstUniformRoundingUp(format, x);
                long[] uniforms = {0, flip - 1, flip, 0xFFFFFFFEL, 0xFFFFFFFFL, 0x80000000L};
                for (int i = 0; i < uniforms.length; i += 2) {
                    long high = Math.max(0, Math.min(0xFFFFFFFFL, uniforms[i]));
                    long low = Math.max(0, Math.min(0xFFFFFFFFL, uniforms[i + 1]));
                    float[] pair = {x, -x};
                    gpu.upload(pair, 0, values, 2);
                    codec.encode(0, gradient, cast, unmix(high << 32 | low), 0);
                    byte[] bytes = new byte[cast.payloadBytes()];
                    codec.download(0, cast, bytes);
                    int width = cast.width() / 8;
                    for (int e = 0; e < 2; e++) {
                        int code = bytes[width * e] & 0xFF | (width == 2 ? (bytes[width * e + 1] & 0xFF) << 8 : 0);
                        long u = e == 0 ? high : low;
                        assertEquals(format.encode(pair[e], u), code, format + " " + pair[e] + " uniform " + u);
                        compared++;
                    }
                }
            }
        }
        return compared;
    }

    /** The edge values, and each power of two of float32 with the floats on either side of it and its triple. */
    private static List<Float> flipCandidates() {
        List<Float> out = new ArrayList<>();
        for (float edge : EDGES) {
            out.add(edge);
        }
        for (int k = -149; k <= 127; k++) {
            float p = Math.scalb(1f, k);
            out.addAll(List.of(p, Math.nextDown(p), Math.nextUp(p), 3 * p));
        }
        return out;
    }

    /** The least uniform with which {@code x} rounds as with the largest, by bisection; 0 where all round alike. */
    private static long firstUniformRoundingUp(FloatFormat format, float x) {
        int top = format.encode(x, 0xFFFFFFFFL);
        long lo = -1;
        long hi = 0xFFFFFFFFL;
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (format.encode(x, mid) == top) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** The key whose draw 0 is {@code draw}: the inverse of {@link CounterRng#mix}. */
    private static long unmix(long draw) {
        long z = unshift(draw, 31) * inverse(0x94D049BB133111EBL);
        z = unshift(z, 27) * inverse(0xBF58476D1CE4E5B9L);
        z = unshift(z, 30);
        assertEquals(draw, CounterRng.mix(z));
        return z;
    }

    /** The x with {@code x ^ (x >>> shift) == y}. */
    private static long unshift(long y, int shift) {
        long x = y;
        for (int i = 0; i < 64 / shift + 1; i++) {
            x = y ^ (x >>> shift);
        }
        return x;
    }

    /** The inverse of odd {@code m} modulo 2^64 (Newton's iteration, doubling the correct bits each time). */
    private static long inverse(long m) {
        long x = m;
        for (int i = 0; i < 6; i++) {
            x *= 2 - m * x;
        }
        return x;
    }

    /**
     * Gaussian values, each scaled by a random power of two from 2^-150 to 2^128, and one value in four an edge value
     * or its neighbour one float below or above, of random sign; the first values are the edges in order.
     */
    private static float[] gradient(int n, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            if (i < EDGES.length) {
                g[i] = EDGES[i] * (rng.nextBoolean() ? -1 : 1);
            } else if (rng.nextInt(4) == 0) {
                float edge = EDGES[rng.nextInt(EDGES.length)];
                int step = rng.nextInt(3) - 1;
                float v = Float.isFinite(edge) ? Float.intBitsToFloat(Float.floatToRawIntBits(edge) + step) : edge;
                g[i] = rng.nextBoolean() ? -v : v;
            } else {
                g[i] = (float) rng.nextGaussian() * Math.scalb(1f, rng.nextInt(279) - 150 + 1);
            }
        }
        return g;
    }
}
