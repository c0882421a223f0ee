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

// Word w of the sign bits of the n floats of g (SignBits.write): bit j for value 32w + j, zero past n.
extern "C" __global__ void gr_sign_bits(const float* g, long long n, unsigned* words, long long wordCount) {
    GR_FOR_EACH(w, wordCount) {
        unsigned word = 0;
        long long from = 32 * w;
        int count = (int) (n - from < 32 ? n - from : 32);
        for (int j = 0; j < count; j++) {
            word |= (g[from + j] < 0.0f ? 1u : 0u) << j;
        }
        words[w] = word;
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
