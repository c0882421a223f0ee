// Pooling and the option-A residual shortcut on channels-last (NHWC) images: the CUDA side of CudaPooling.
//
// Every kernel but the mean pool is one thread per element it writes (grid-stride), with the channel as the fastest
// index, so a warp reads and writes consecutive addresses whatever the image shape. The backward passes gather:
// each input element finds the outputs that can reach it and sums them itself, so there are no atomics and no
// zeroing pass, and the sums run in the CPU's order (the same bits as CpuWindowKernels).
//
// Indices: a tensor holds fewer than 2^31 values, so one element's index fits an unsigned; decompositions use
// 32-bit division, offsets into the images are formed in 64 bits.
#include "gridrun.cuh"

// One element of a channels-last tensor of images × height × width × channels: its image, row, column, channel.
struct gr_pixel {
    unsigned n, y, x, c;
};

// Splits element index u (under 2^31) of an images × height × width × channels tensor.
__device__ __forceinline__ gr_pixel gr_split(unsigned u, int height, int width, int channels) {
    gr_pixel p;
    p.c = u % (unsigned) channels;
    unsigned pixel = u / (unsigned) channels;
    p.x = pixel % (unsigned) width;
    unsigned rest = pixel / (unsigned) width;
    p.y = rest % (unsigned) height;
    p.n = rest / (unsigned) height;
    return p;
}

// Java's Math.max(float, float), which CpuWindowKernels.maxPool uses: a NaN wins (the first one met, bits kept) and
// +0 beats -0. fmaxf would drop NaNs, so it is not used.
__device__ __forceinline__ float gr_java_max(float a, float b) {
    if (a != a) {
        return a;
    }
    if (a == 0.0f && b == 0.0f && (__float_as_uint(a) >> 31) != 0u) {
        return b;
    }
    return a >= b ? a : b;
}

// The image rows (or columns) [from, to) that window o covers along one axis of `size` positions padded with
// `padding` on each side: the padding is cut off, so padded positions are never read and never win. Pooling's
// padding is at most half the kernel (Shapes.requirePoolWindow), so the span is never empty.
struct gr_span {
    int from, to;
};

__device__ __forceinline__ gr_span gr_window(int o, int stride, int padding, int kernel, int size) {
    int start = o * stride - padding;
    gr_span s;
    s.from = max(start, 0);
    s.to = min(start + kernel, size);
    return s;
}

// Max pooling, padded windows included. x: images × height·width·channels; y: images × outH·outW·channels. One
// thread per output value; its window's reads are strided by `channels`, shared through L1 with the neighbouring
// channels' threads. The window is folded in kernel order starting from its first position inside the image, exactly
// as the CPU loop does.
extern "C" __global__ void gr_max_pool(const float* x, float* y, long long total, int height, int width,
                                       int channels, int kernelHeight, int kernelWidth, int stride, int padding,
                                       int outHeight, int outWidth) {
    GR_FOR_EACH(i, total) {
        gr_pixel o = gr_split((unsigned) i, outHeight, outWidth, channels);
        gr_span rows = gr_window((int) o.y, stride, padding, kernelHeight, height);
        gr_span cols = gr_window((int) o.x, stride, padding, kernelWidth, width);
        const float* image = x + (long long) o.n * height * width * channels + o.c;
        float m = image[((long long) rows.from * width + cols.from) * channels];
        for (int iy = rows.from; iy < rows.to; iy++) {
            const float* row = image + (long long) iy * width * channels;
            for (int ix = cols.from; ix < cols.to; ix++) {
                m = gr_java_max(m, row[(long long) ix * channels]);
            }
        }
        y[i] = m;
    }
}

// The max-pooling backward pass as a gather. One thread per INPUT value (n, iy, ix, ch): it walks the windows that
// contain it in output order (oy, then ox), finds each window's argmax again from x with the CPU's rule (start at
// the window's first position inside the image, move only on a strictly greater one: ties go to the first in kernel
// order, a NaN first value keeps the gradient there, later NaNs never win, padding is skipped), and adds that
// output's gradient when the argmax is itself. The sum starts at 0 and runs in the CPU's order, so the bits agree.
// Overlapping windows (e.g. 3×3 stride 2) cost a window scan per window containing the input — at most ceil(k/s)²
// scans of k² values, all cached.
extern "C" __global__ void gr_max_pool_backward(const float* x, const float* dy, float* dx, long long total,
                                                int height, int width, int channels, int kernelHeight,
                                                int kernelWidth, int stride, int padding, int outHeight,
                                                int outWidth) {
    GR_FOR_EACH(i, total) {
        gr_pixel in = gr_split((unsigned) i, height, width, channels);
        // In padded coordinates py = iy + padding: windows oy with oy·stride ≤ py ≤ oy·stride + kernelHeight − 1,
        // within [0, outHeight); likewise ox.
        int py = (int) in.y + padding;
        int px = (int) in.x + padding;
        int oy0 = py < kernelHeight ? 0 : (py - kernelHeight + stride) / stride;
        int oy1 = min(py / stride, outHeight - 1);
        int ox0 = px < kernelWidth ? 0 : (px - kernelWidth + stride) / stride;
        int ox1 = min(px / stride, outWidth - 1);
        const float* image = x + (long long) in.n * height * width * channels + in.c;
        const float* grad = dy + (long long) in.n * outHeight * outWidth * channels + in.c;
        int self = (int) in.y * width + (int) in.x;
        float sum = 0.0f;
        for (int oy = oy0; oy <= oy1; oy++) {
            gr_span rows = gr_window(oy, stride, padding, kernelHeight, height);
            for (int ox = ox0; ox <= ox1; ox++) {
                gr_span cols = gr_window(ox, stride, padding, kernelWidth, width);
                int at = rows.from * width + cols.from;
                float m = image[(long long) at * channels];
                for (int iy = rows.from; iy < rows.to; iy++) {
                    for (int ix = cols.from; ix < cols.to; ix++) {
                        int p = iy * width + ix;
                        float v = image[(long long) p * channels];
                        if (v > m) {
                            m = v;
                            at = p;
                        }
                    }
                }
                if (at == self) {
                    sum += grad[((long long) oy * outWidth + ox) * channels];
                }
            }
        }
        dx[i] = sum;
    }
}

// Lanes per (row, channel) of the mean pool: each sums every MEAN_LANES-th position, then lane 0 adds the lanes'
// partial sums in lane order. Fixed order, so the same bits every run (not the CPU's bits: it sums positions in
// one sequence), and MEAN_LANES times the threads of a sequential sum when rows × channels is small.
#define MEAN_LANES 8
#define MEAN_TILE 32

// Mean over positions: x is rows × positions·channels, y rows × channels, y = (Σ_p x[p]) · inverse with inverse =
// 1/positions computed by the caller as the CPU does. Blocks of MEAN_TILE channels × MEAN_LANES lanes; blockIdx.x
// is the row, blockIdx.y (grid-stride) the channel tile. A warp is one lane over 32 consecutive channels:
// coalesced reads.
extern "C" __global__ void gr_mean_pool(const float* x, float* y, int positions, int channels, float inverse) {
    __shared__ float partial[MEAN_LANES][MEAN_TILE];
    long long row = blockIdx.x;
    const float* src = x + row * positions * channels;
    for (int c0 = blockIdx.y * MEAN_TILE; c0 < channels; c0 += gridDim.y * MEAN_TILE) {
        int ch = c0 + (int) threadIdx.x;
        float s = 0.0f;
        if (ch < channels) {
            for (int p = (int) threadIdx.y; p < positions; p += MEAN_LANES) {
                s += src[(long long) p * channels + ch];
            }
        }
        partial[threadIdx.y][threadIdx.x] = s;
        __syncthreads();
        if (threadIdx.y == 0 && ch < channels) {
            float t = partial[0][threadIdx.x];
            for (int l = 1; l < MEAN_LANES; l++) {
                t += partial[l][threadIdx.x];
            }
            y[row * channels + ch] = t * inverse;
        }
        __syncthreads();
    }
}

// The mean-pool backward pass: dx[row][p][ch] = dy[row][ch] · inverse, one thread per dx value.
extern "C" __global__ void gr_mean_pool_backward(const float* dy, float* dx, long long total, int positions,
                                                 int channels, float inverse) {
    unsigned rowSize = (unsigned) positions * (unsigned) channels;
    GR_FOR_EACH(i, total) {
        unsigned u = (unsigned) i;
        unsigned row = u / rowSize;
        unsigned ch = u % (unsigned) channels;
        dx[i] = dy[(long long) row * channels + ch] * inverse;
    }
}

// The option-A shortcut: y[n][oy][ox][oc] = x[n][oy·stride][ox·stride][oc − before] for oc in [before, before +
// channels), else 0. One thread per y value, so the zero channels are written in the same coalesced pass.
extern "C" __global__ void gr_shortcut(const float* x, float* y, long long total, int height, int width,
                                       int channels, int stride, int outHeight, int outWidth, int outChannels,
                                       int before) {
    GR_FOR_EACH(i, total) {
        gr_pixel o = gr_split((unsigned) i, outHeight, outWidth, outChannels);
        int c = (int) o.c - before;
        float v = 0.0f;
        if (c >= 0 && c < channels) {
            v = x[(((long long) o.n * height + (long long) o.y * stride) * width + (long long) o.x * stride)
                  * channels + c];
        }
        y[i] = v;
    }
}

// The shortcut's adjoint: dx[n][iy][ix][ch] = dy[n][iy/stride][ix/stride][before + ch] where stride divides iy and
// ix, else 0. One thread per dx value (every one written: dx is overwritten).
extern "C" __global__ void gr_shortcut_backward(const float* dy, float* dx, long long total, int height, int width,
                                                int channels, int stride, int outHeight, int outWidth,
                                                int outChannels, int before) {
    GR_FOR_EACH(i, total) {
        gr_pixel in = gr_split((unsigned) i, height, width, channels);
        unsigned s = (unsigned) stride;
        float v = 0.0f;
        if (in.y % s == 0u && in.x % s == 0u) {
            v = dy[(((long long) in.n * outHeight + in.y / s) * outWidth + in.x / s) * outChannels + before + in.c];
        }
        dx[i] = v;
    }
}
