// The window rearrangements of convolutions on channels-last (NHWC) images: im2col, its adjoint col2im, and the
// 180° kernel flip of the transposed convolution. (The convolution products themselves are implicit GEMMs in
// gemm.cu: they read the images as their patch matrix without writing it.)
//
// Patch matrix layout, as the CPU backend: row r = (img·outH + oy)·outW + ox, column q = (ky·kw + kx)·C + ch.
// Each kernel gives one thread one output element (a grid-stride loop), consecutive threads consecutive elements,
// so stores are coalesced and, channels being innermost on both sides, so are most loads. col2im is a gather: each
// image element sums, in a fixed kernel order, the patch entries that hold it, so no two threads write one place.
#include "gridrun.cuh"

// cols[r][q] ← the patch element of x, 0 in the padding; total = images·outPositions·patch.
extern "C" __global__ void gr_im2col(const float* x, float* cols, long long total, int height, int width,
                                     int channels, int kernelH, int kernelW, int stride, int padding, int outH,
                                     int outW) {
    int patch = kernelH * kernelW * channels;
    int positions = outH * outW;
    GR_FOR_EACH(e, total) {
        long long r = e / patch;
        int q = (int) (e - r * patch);
        int img = (int) (r / positions);
        int pos = (int) (r - (long long) img * positions);
        int oy = pos / outW;
        int ox = pos - oy * outW;
        int ky = q / (kernelW * channels);
        int rest = q - ky * kernelW * channels;
        int kx = rest / channels;
        int ch = rest - kx * channels;
        int iy = oy * stride - padding + ky;
        int ix = ox * stride - padding + kx;
        float v = 0.0f;
        if (iy >= 0 && iy < height && ix >= 0 && ix < width) {
            v = x[(long long) img * height * width * channels + ((long long) iy * width + ix) * channels + ch];
        }
        cols[e] = v;
    }
}

// dx[img][iy][ix][ch] ← Σ over the windows (oy, ox) and kernel offsets (ky, kx) with oy·stride − padding + ky = iy
// and ox·stride − padding + kx = ix of cols[(img·outH + oy)·outW + ox][(ky·kw + kx)·C + ch]; total =
// images·height·width·channels. Kernel offsets ascend (ky outer, kx inner): a fixed order.
extern "C" __global__ void gr_col2im(const float* cols, float* dx, long long total, int height, int width,
                                     int channels, int kernelH, int kernelW, int stride, int padding, int outH,
                                     int outW) {
    int patch = kernelH * kernelW * channels;
    GR_FOR_EACH(e, total) {
        long long p = e / channels;
        int ch = (int) (e - p * channels);
        long long row = p / width;
        int ix = (int) (p - row * width);
        int img = (int) (row / height);
        int iy = (int) (row - (long long) img * height);
        int ty = iy + padding;
        int tx = ix + padding;
        float sum = 0.0f;
        // ky ≡ ty (mod stride) and ky ≤ ty, so that oy = (ty − ky) / stride is a whole, non-negative window row.
        for (int ky = ty % stride; ky < kernelH && ky <= ty; ky += stride) {
            int oy = (ty - ky) / stride;
            if (oy >= outH) {
                continue;
            }
            long long rowBase = ((long long) img * outH + oy) * outW;
            for (int kx = tx % stride; kx < kernelW && kx <= tx; kx += stride) {
                int ox = (tx - kx) / stride;
                if (ox >= outW) {
                    continue;
                }
                sum += cols[(rowBase + ox) * patch + (ky * kernelW + kx) * channels + ch];
            }
        }
        dx[e] = sum;
    }
}

// out[ch][((kh−1−ky)·kw + (kw−1−kx))·filters + f] ← w[f][(ky·kw + kx)·C + ch]: each input channel's kernels turned
// by 180°, the filters together. One thread per element of out (a gather: coalesced stores); total = filters·patch.
extern "C" __global__ void gr_flip_kernels(const float* w, float* out, long long total, int filters, int channels,
                                           int kernelH, int kernelW) {
    int kernel = kernelH * kernelW;
    int patch = kernel * channels;
    int row = kernel * filters;
    GR_FOR_EACH(e, total) {
        int ch = (int) (e / row);
        int rest = (int) (e - (long long) ch * row);
        int flipped = rest / filters;
        int f = rest - flipped * filters;
        int source = kernel - 1 - flipped;  // (kh−1−ky)·kw + (kw−1−kx) = kh·kw − 1 − (ky·kw + kx)
        out[e] = w[(long long) f * patch + source * channels + ch];
    }
}
