// signSGD's payloads on the GPU (CudaSignCodec), byte for byte what the CPU encoder (org.gridrun.engine.compress.SignSgd
// with SignBits) writes, and their decoding into the workers' mean as the host's collective does.
//
// The payload is, when scaled, the scale s = (float) (Σ|v_i| / n) as float32 (the GPU is little-endian, as the wire
// format), then one sign bit per value (1 for negative; zero, positive and NaN give 0), least significant bit first.
// The scale's sum of magnitudes follows the host's chunked chains (ChainSums, chains.cu); the bits are
// one thread per 32-bit word (the scale is one word, so the bits start on a word), no thread writing another's word.
#include "gridrun.cuh"

// The scale of n floats whose magnitudes sum to sum[0] (SignSgd.meanAbs; the sum in ChainSums' order, chains.cu)
// into scale[0]: (float) (sum / n), 0 for n = 0, a NaN one as the one canonical NaN, as the host writes it (which NaN
// a chain of additions carries is the processor's). One thread.
extern "C" __global__ void gr_sign_scale(const double* sum, long long n, float* scale) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    float s = n == 0 ? 0.0f : (float) (sum[0] / (double) n);
    scale[0] = s != s ? __uint_as_float(0x7FC00000u) : s;
}

// Word w of the sign bits of the n floats of g (SignBits.write): bit j for value 32w + j, zero past n. A warp a word:
// lane j reads value 32w + j, so a warp's loads are one 128-byte run (a thread a word had read 32 values alone, its
// neighbours 128 bytes apart), and the warp's ballot is the word. Blocks of 256 threads, 8 words.
extern "C" __global__ void __launch_bounds__(256) gr_sign_bits(const float* g, long long n, unsigned* words,
                                                               long long wordCount) {
    int lane = threadIdx.x & 31;
    GR_FOR_EACH_WARP(w, wordCount) {
        long long e = 32 * w + lane;
        unsigned word = __ballot_sync(0xffffffffu, e < n && g[e] < 0.0f);
        if (lane == 0) {
            words[w] = word;
        }
    }
}

// Worker `worker`'s decoded payload added to the mean of `workers` gradients in `mean` (SimulatedCollective.addToMean
// after SignSgd.decode): value e decodes to −s for a set bit, else s, with s the payload's scale where `scaled`, else
// 1; worker 0 writes, the others add in order, the last multiplies by `inverse` (1f/workers). One thread per value.
extern "C" __global__ void gr_sign_decode_mean(const unsigned* payload, long long n, int scaled, int worker,
                                               int workers, float inverse, float* mean) {
    float s = scaled ? __uint_as_float(payload[0]) : 1.0f;
    const unsigned* bits = payload + (scaled ? 1 : 0);
    GR_FOR_EACH(e, n) {
        float v = (bits[e >> 5] >> (e & 31)) & 1u ? -s : s;
        float m = worker == 0 ? v : __fadd_rn(mean[e], v);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 1-bit SGD (CudaOneBitCodec; org.gridrun.engine.compress.OneBitSgd): per bucket the means of its values not below
// zero and below zero (float32, all buckets first), then one sign bit per value; the residual r, kept by the slot,
// becomes c = g + r before and c − D(c) after.

// Per bucket (a block of GR_CHAINS threads, looping): c = g + r into r's place, and the two side means into payload
// words 2b (not below zero) and 2b + 1 (below zero), each side's sum in ChainSums.side's order over its count, a NaN
// mean as the canonical NaN.
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_onebit_means(const float* g, float* r, long long n,
                                                                       int bucketSize, int buckets,
                                                                       unsigned* payload) {
    __shared__ double sums[GR_CHAINS];
    __shared__ int counts[GR_CHAINS];
    int j = threadIdx.x;
    for (int b = blockIdx.x; b < buckets; b += gridDim.x) {
        long long from = (long long) b * bucketSize;
        long long to = from + bucketSize < n ? from + bucketSize : n;
        double above = 0.0;
        double below = 0.0;
        int aboveCount = 0;
        int belowCount = 0;
        // c = g + r of value i into r and its side's chain, in chain order
        auto add = [&](long long i, float c) {
            r[i] = c;
            if (c < 0.0f) {
                below = __dadd_rn(below, (double) c);
                belowCount++;
            } else {
                above = __dadd_rn(above, (double) c);
                aboveCount++;
            }
        };
        gr_for_ahead<8>(from + j, to, GR_CHAINS, [&](long long i) { return __fadd_rn(g[i], r[i]); }, add);
        for (int s = 0; s < 2; s++) {
            sums[j] = s == 0 ? above : below;
            counts[j] = s == 0 ? aboveCount : belowCount;
            double sum = gr_chain_sum(sums);
            if (j == 0) {
                int total = 0;
                for (int k = 0; k < GR_CHAINS; k++) {
                    total += counts[k];
                }
                float mean = total == 0 ? 0.0f : (float) (sum / (double) total);
                payload[2 * b + s] = mean != mean ? 0x7FC00000u : __float_as_uint(mean);
            }
            __syncthreads();
        }
    }
}

// Each value's residual c − D(c): c minus its bucket's mean of its side.
extern "C" __global__ void gr_onebit_residual(float* r, long long n, int bucketSize, const unsigned* payload) {
    GR_FOR_EACH(i, n) {
        float c = r[i];
        long long b = i / bucketSize;
        r[i] = __fsub_rn(c, __uint_as_float(payload[2 * b + (c < 0.0f ? 1 : 0)]));
    }
}

// Worker `worker`'s payload added to the mean of `workers` gradients: a set bit decodes to its bucket's mean below
// zero, else to its mean not below zero.
extern "C" __global__ void gr_onebit_decode_mean(const unsigned* payload, long long n, int bucketSize, int buckets,
                                                 int worker, int workers, float inverse, float* mean) {
    const unsigned* bits = payload + 2LL * buckets;
    GR_FOR_EACH(e, n) {
        long long b = e / bucketSize;
        float v = __uint_as_float(payload[2 * b + ((bits[e >> 5] >> (e & 31)) & 1u)]);
        float m = worker == 0 ? v : __fadd_rn(mean[e], v);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}
