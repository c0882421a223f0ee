// Matrix products: row-major SGEMM in four transpose combinations, and the two convolution products that read an
// image batch as if it were its im2col patch matrix (implicit GEMM: no patch matrix is ever written).
//
// One kernel body (gemm_body) serves all of them. Design, and why:
//   - A block of 256 threads computes a BM×BN tile of C with BM·BN = 4096: 64×64 for products that are large both
//     ways, 256×16 / 128×32 for tall ones (a convolution's n = filters is often 16 or 32 while m = images·positions
//     is 10^5), 32×128 / 16×256 for wide ones (a weight gradient has m = filters, n = patch). The launcher picks the
//     shape that wastes the fewest padded elements, so a 16-column product does not run 75 % idle in 64×64 tiles.
//     Plain products large both ways (an LSTM's output layer, a ViT's MLP) take 128×128 tiles instead
//     (gr_gemm_*_128x128, CudaBlas.productShape).
//   - Each thread owns a 4×4 register micro-tile: rows ty·4…ty·4+3, columns tx·4…tx·4+3, so each k step reads one
//     4-float run of the A tile and one of the B tile from shared memory (16-byte loads on the GPU) for 16 FMAs; in
//     the 128×128 tiles, 2×2 such runs (8×8), four runs read for 64 FMAs.
//   - K advances in 16-deep slices through two shared buffers: while a slice is multiplied, the next one is already
//     in registers (loaded from global memory before the multiply, stored to the other buffer after it), so global
//     latency overlaps arithmetic and each slice costs one barrier.
//   - Global loads are coalesced along whichever dimension is contiguous in memory for the operand's transpose; the
//     shared tiles are k-major (As[k][m], Bs[k][n]), padded by 4 floats where a store pattern would otherwise hit
//     one bank 16 times (the pad keeps rows 16-byte aligned for the vector reads).
//   - Every edge is bounds-checked: out-of-range loads read 0, out-of-range stores are skipped, so any m, n, k,
//     lda/ldb/ldc and any (unaligned) base address works. Vector loads touch shared memory only.
//   - Split-K: gridDim.y > 1 splits K into chunks of kChunk (a multiple of 16); split z multiplies its chunk alone
//     and writes the raw product to c + z·splitStride (the SPLIT_K scratch); gr_gemm_reduce then sums the splits in
//     a fixed order and applies alpha and beta. No atomics anywhere: the same inputs give the same bits.
//   - Epilogue: c = alpha·acc + beta·c, where beta = 0 never reads c (it may hold NaN) and alpha = 0 never reads the
//     products (as BLAS: c = beta·c).
//   - Implicit GEMM for convolutions (channels-last images, patch column q = (ky·kw + kx)·C + ch, patch row
//     r = (img·outH + oy)·outW + ox): a patch element is x[base(r) + off(q)] when (iy0(r) + ky(q), ix0(r) + kx(q))
//     lies inside the image, else 0. The row part (base, iy0, ix0) and the column part (ky, kx, off) are each
//     decoded once and kept in shared tables or registers, so the inner loads cost no divisions.
//       * forward  y = im2col(x)·wᵀ: A is the patch matrix (rows of a block fixed: a table of BM row entries built
//         once), B = wᵀ; each thread's patch column within a slice is fixed, decoded once per slice.
//       * weight gradient dw = dyᵀ·im2col(x): A = dyᵀ, B is the patch matrix read with K along patch rows (a table
//         of 16 row entries per slice, built one slice ahead in a double-buffered table), each thread's patch
//         column fixed for the whole block, decoded once.
#include "gridrun.cuh"

#define GEMM_THREADS 256
#define GEMM_BK 16

// Out-of-range markers of the implicit patch tables: an invalid row has iy0 = GEMM_BAD_ROW, an invalid column has
// ky = GEMM_BAD_COL. Any sum involving one lies outside [0, height): -2^29 + ky < 0, iy0 + 2^28 > height.
#define GEMM_BAD_ROW (-(1 << 29))
#define GEMM_BAD_COL (1 << 28)

enum { GEMM_PLAIN = 0, GEMM_CONV_FORWARD = 1, GEMM_CONV_WEIGHTS = 2 };

// The geometry of an implicit patch matrix (unused by plain products).
struct GemmGeometry {
    int height, width, channels, kernelH, kernelW, stride, padding, outH, outW;
};

// Shared memory of one block. The pads (4 floats, keeping 16-byte rows) go where the global-to-shared store pattern
// runs down a column of the tile: A when not transposed, B when transposed.
template <int BM, int BN, bool TA, bool TB>
struct GemmShared {
    alignas(16) float a[2][GEMM_BK][BM + (TA ? 0 : 4)];
    alignas(16) float b[2][GEMM_BK][BN + (TB ? 4 : 0)];
    int rowBase[BM];              // forward: the block's patch rows
    int rowY[BM];
    int rowX[BM];
    int kBase[2][GEMM_BK];        // weight gradient: the patch rows of the next slices
    int kY[2][GEMM_BK];
    int kX[2][GEMM_BK];
};

// Patch row r decoded: base = img·inputSize + (iy0·W + ix0)·C, and the window's top-left (iy0, ix0), maybe negative.
__device__ __forceinline__ void gemm_patch_row(const GemmGeometry& g, int rows, int r, int& base, int& iy0, int& ix0) {
    if (r >= rows) {
        base = 0;
        iy0 = GEMM_BAD_ROW;
        ix0 = GEMM_BAD_ROW;
        return;
    }
    int positions = g.outH * g.outW;
    int img = r / positions;
    int pos = r - img * positions;
    int oy = pos / g.outW;
    int ox = pos - oy * g.outW;
    iy0 = oy * g.stride - g.padding;
    ix0 = ox * g.stride - g.padding;
    base = img * (g.height * g.width * g.channels) + (iy0 * g.width + ix0) * g.channels;
}

// Patch column q decoded (q < cols, else marked invalid): kernel offsets (ky, kx) and off = (ky·W + kx)·C + ch.
__device__ __forceinline__ void gemm_patch_col(const GemmGeometry& g, int cols, int q, int& ky, int& kx, int& off) {
    if (q >= cols) {
        ky = GEMM_BAD_COL;
        kx = GEMM_BAD_COL;
        off = 0;
        return;
    }
    int run = g.kernelW * g.channels;
    ky = q / run;
    int rest = q - ky * run;
    kx = rest / g.channels;
    int ch = rest - kx * g.channels;
    off = (ky * g.width + kx) * g.channels + ch;
}

// One patch element, 0 in the padding or outside the matrix.
__device__ __forceinline__ float gemm_patch(const float* x, const GemmGeometry& g, int base, int iy0, int ix0, int ky,
                                            int kx, int off) {
    int iy = iy0 + ky;
    int ix = ix0 + kx;
    return (iy >= 0 && iy < g.height && ix >= 0 && ix < g.width) ? x[(long long) base + off] : 0.0f;
}

// Four consecutive floats of a 16-byte aligned shared row.
__device__ __forceinline__ void gemm_read4(const float* p, float v[4]) {
    float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x;
    v[1] = t.y;
    v[2] = t.z;
    v[3] = t.w;
}

// Where element e (thread t's i-th, e = t + i·256) of a 16-deep slice of an operand goes: slice row kk, and oo along
// the operand's other dimension (m for A, n for B), of extent OUTER. Consecutive e are consecutive in memory, so
// loads coalesce: along k when the operand is stored with k contiguous (A as is, B transposed), else along oo.
template <int OUTER, bool K_CONTIGUOUS>
__device__ __forceinline__ void gemm_slot(int e, int& kk, int& oo) {
    if (K_CONTIGUOUS) {
        kk = e % GEMM_BK;
        oo = e / GEMM_BK;
    } else {
        oo = e % OUTER;
        kk = e / OUTER;
    }
}

// This thread's elements of the slice from k0 of a stored operand: element (o, kq) at p[o·ld + kq] when K_CONTIGUOUS,
// else at p[kq·ld + o]; 0 outside o < outer, kq < kEnd.
template <int OUTER, bool K_CONTIGUOUS>
__device__ __forceinline__ void gemm_load(const float* __restrict__ p, int ld, int o0, int outer, int k0, int kEnd,
                                          float* r) {
    for (int i = 0; i < OUTER * GEMM_BK / GEMM_THREADS; i++) {
        int kk, oo;
        gemm_slot<OUTER, K_CONTIGUOUS>(threadIdx.x + i * GEMM_THREADS, kk, oo);
        int o = o0 + oo, kq = k0 + kk;
        r[i] = (o < outer && kq < kEnd) ? p[K_CONTIGUOUS ? (long long) o * ld + kq : (long long) kq * ld + o] : 0.0f;
    }
}

// This thread's loaded elements into a shared slice tile[kk][oo].
template <int OUTER, bool K_CONTIGUOUS, int PITCH>
__device__ __forceinline__ void gemm_store(float (*tile)[PITCH], const float* r) {
    for (int i = 0; i < OUTER * GEMM_BK / GEMM_THREADS; i++) {
        int kk, oo;
        gemm_slot<OUTER, K_CONTIGUOUS>(threadIdx.x + i * GEMM_THREADS, kk, oo);
        tile[kk][oo] = r[i];
    }
}

// C tile (blockIdx.x) of split blockIdx.y of c ← alpha·op(A)·op(B) + beta·c, op(A) m×k, op(B) k×n. MODE selects
// how A and B are read (see the header); for the convolutions x is the image batch and g its geometry. A thread's
// micro-tile is RM×RN runs of 4×4: rows gi·BM/RM + ty·4 + i, columns gj·BN/RN + tx·4 + j (gi < RM, gj < RN), so
// each 4-float read of a slice row stays one 16-byte load that the warp's threads share or spread over the banks.
template <int BM, int BN, bool TA, bool TB, int MODE, int RM = 1, int RN = 1>
__device__ __forceinline__ void gemm_body(GemmShared<BM, BN, TA, TB>& sh, const float* __restrict__ a, int lda,
                                          const float* __restrict__ b, int ldb, float* __restrict__ c, int ldc, int m,
                                          int n, int k, float alpha, float beta, int kChunk, long long splitStride,
                                          const GemmGeometry& g) {
    const int A_LOADS = BM * GEMM_BK / GEMM_THREADS;
    const int B_LOADS = BN * GEMM_BK / GEMM_THREADS;
    const int t = threadIdx.x;
    const int mBlocks = (m + BM - 1) / BM;
    const int m0 = (int) (blockIdx.x % (unsigned) mBlocks) * BM;
    const int n0 = (int) (blockIdx.x / (unsigned) mBlocks) * BN;
    const int kBegin = (int) blockIdx.y * kChunk;
    const int kEnd = min(k, kBegin + kChunk);
    const int slices = kEnd > kBegin ? (kEnd - kBegin + GEMM_BK - 1) / GEMM_BK : 0;
    c += (long long) blockIdx.y * splitStride;

    // The fixed parts of the implicit operand: the forward's row table, the weight gradient's column (registers).
    int colY = 0, colX = 0, colOff = 0;
    if (MODE == GEMM_CONV_FORWARD) {
        if (t < BM) {
            gemm_patch_row(g, m, m0 + t, sh.rowBase[t], sh.rowY[t], sh.rowX[t]);
        }
    }
    if (MODE == GEMM_CONV_WEIGHTS) {
        gemm_patch_col(g, n, n0 + t % BN, colY, colX, colOff);
        for (int s = 0; s < 2; s++) {
            if (t < GEMM_BK) {
                int r = kBegin + s * GEMM_BK + t;
                gemm_patch_row(g, kEnd, r, sh.kBase[s][t], sh.kY[s][t], sh.kX[s][t]);
            }
        }
    }
    __syncthreads();

    float ra[A_LOADS];
    float rb[B_LOADS];
    float acc[4 * RM][4 * RN];
    for (int i = 0; i < 4 * RM; i++) {
        for (int j = 0; j < 4 * RN; j++) {
            acc[i][j] = 0.0f;
        }
    }

    // Loads slice `s` (K from k0) into registers, element e = t + i·256 of the tile at the place gemm_slot gives.
    auto load = [&](int s) {
        int k0 = kBegin + s * GEMM_BK;
        if (MODE == GEMM_CONV_FORWARD) {
            int kk = t % GEMM_BK;  // this thread's patch column in every load of the slice
            int ky, kx, off;
            gemm_patch_col(g, kEnd, k0 + kk, ky, kx, off);
            for (int i = 0; i < A_LOADS; i++) {
                int mm = t / GEMM_BK + i * (GEMM_THREADS / GEMM_BK);
                ra[i] = gemm_patch(a, g, sh.rowBase[mm], sh.rowY[mm], sh.rowX[mm], ky, kx, off);
            }
        } else {
            gemm_load<BM, !TA>(a, lda, m0, m, k0, kEnd, ra);
        }
        if (MODE == GEMM_CONV_WEIGHTS) {
            int slot = s & 1;
            for (int i = 0; i < B_LOADS; i++) {
                int kk = (t + i * GEMM_THREADS) / BN;  // the column, t % BN, is this thread's for the whole block
                rb[i] = gemm_patch(b, g, sh.kBase[slot][kk], sh.kY[slot][kk], sh.kX[slot][kk], colY, colX, colOff);
            }
        } else {
            gemm_load<BN, TB>(b, ldb, n0, n, k0, kEnd, rb);
        }
    };

    if (slices > 0) {
        load(0);
        gemm_store<BM, !TA>(sh.a[0], ra);
        gemm_store<BN, TB>(sh.b[0], rb);
    }
    __syncthreads();

    static_assert((BM / (4 * RM)) * (BN / (4 * RN)) == GEMM_THREADS, "a micro-tile a thread covers the tile");
    const int tx = t % (BN / (4 * RN));
    const int ty = t / (BN / (4 * RN));
    for (int s = 0; s < slices; s++) {
        int buf = s & 1;
        bool more = s + 1 < slices;
        if (more) {
            load(s + 1);
        }
#pragma unroll
        for (int kk = 0; kk < GEMM_BK; kk++) {
            float av[4 * RM], bv[4 * RN];
            for (int gi = 0; gi < RM; gi++) {
                gemm_read4(&sh.a[buf][kk][gi * (BM / RM) + ty * 4], av + 4 * gi);
            }
            for (int gj = 0; gj < RN; gj++) {
                gemm_read4(&sh.b[buf][kk][gj * (BN / RN) + tx * 4], bv + 4 * gj);
            }
            for (int i = 0; i < 4 * RM; i++) {
                for (int j = 0; j < 4 * RN; j++) {
                    acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
                }
            }
        }
        if (more) {
            gemm_store<BM, !TA>(sh.a[buf ^ 1], ra);
            gemm_store<BN, TB>(sh.b[buf ^ 1], rb);
        }
        if (MODE == GEMM_CONV_WEIGHTS && t < GEMM_BK) {
            // Slice s's row table (slot buf) was last read loading slice s, before the previous barrier.
            int r = kBegin + (s + 2) * GEMM_BK + t;
            gemm_patch_row(g, kEnd, r, sh.kBase[buf][t], sh.kY[buf][t], sh.kX[buf][t]);
        }
        __syncthreads();
    }

    for (int i = 0; i < 4 * RM; i++) {
        int row = m0 + (i / 4) * (BM / RM) + ty * 4 + i % 4;
        if (row >= m) {
            continue;
        }
        float* cr = c + (long long) row * ldc;
        for (int j = 0; j < 4 * RN; j++) {
            int col = n0 + (j / 4) * (BN / RN) + tx * 4 + j % 4;
            if (col < n) {
                float v = alpha == 0.0f ? 0.0f : alpha * acc[i][j];
                if (beta != 0.0f) {
                    v = fmaf(beta, cr[col], v);
                }
                cr[col] = v;
            }
        }
    }
}

// The kernels. Each is declared in full below (the emulator's build finds kernels by their declarations); the
// macros only spell out the parameter lists and the one-line bodies. __launch_bounds__(256, 2) caps a thread at 128
// registers so that two blocks share a multiprocessor (the tall and wide shapes would otherwise take up to 153 and
// run one block at a time).
//
// gr_gemm_<ab>_<BM>x<BN>: c ← alpha·op(a)·op(b) + beta·c, a and b transposed where <ab> says t. Grid: x =
// ceil(m/BM)·ceil(n/BN) tiles, y = splits (each writing c + z·splitStride); 256 threads.
#define GEMM_PLAIN_PARAMS                                                                                           \
    const float *a, int lda, const float *b, int ldb, float *c, int ldc, int m, int n, int k, float alpha,           \
            float beta, int kChunk, long long splitStride
#define GEMM_PRODUCT(BM, BN, TA, TB, A, B, C) GEMM_PRODUCT_MICRO(BM, BN, TA, TB, A, B, C, 1)
#define GEMM_PRODUCT_MICRO(BM, BN, TA, TB, A, B, C, R)                                                              \
    {                                                                                                               \
        __shared__ GemmShared<BM, BN, TA, TB> sh;                                                                  \
        GemmGeometry g = {1, 1, 1, 1, 1, 1, 0, 1, 1};                                                              \
        gemm_body<BM, BN, TA, TB, GEMM_PLAIN, R, R>(sh, A, lda, B, ldb, C, ldc, m, n, k, alpha, beta, kChunk,       \
                                                    splitStride, g);                                               \
    }
#define GEMM_PLAIN(BM, BN, TA, TB) GEMM_PRODUCT(BM, BN, TA, TB, a, b, c)

// gr_gemm_<ab>_128x128: the products large both ways (m and n from 128), a thread computing 8×8 (2×2 runs of 4×4):
// 64 multiply-adds for every 16 floats it reads from shared memory, where a 4×4 tile's 16 for 8 leave the
// multiprocessor waiting on shared memory. Same order of additions as every shape, so the same bits. One block a
// multiprocessor (__launch_bounds__(256, 1)): its 135 to 167 registers a thread would spill under the cap of 128
// that two blocks need.
#define GEMM_LARGE(TA, TB) GEMM_PRODUCT_MICRO(128, 128, TA, TB, a, b, c, 2)

// gr_gemm_batched_<ab>_<BM>x<BN>: gridDim.z products of one shape in one launch, product z reading a + z·strideA and
// b + z·strideB and writing c + z·strideC (attention's per-head products, which a launch each made thousands of
// launches of a few tiles a ViT step); no split (gridDim.y = 1). Each element's sum runs over k in order whatever the
// tile shape, so a product has the bits of its own gr_gemm_<ab>. Only the three shapes that keep their registers
// under __launch_bounds__(256, 2) without spilling have a batched form.
#define GEMM_BATCHED_PARAMS GEMM_PLAIN_PARAMS, long long strideA, long long strideB, long long strideC
#define GEMM_BATCHED(BM, BN, TA, TB)                                                                                \
    GEMM_PRODUCT(BM, BN, TA, TB, a + (long long) blockIdx.z * strideA, b + (long long) blockIdx.z * strideB,       \
                 c + (long long) blockIdx.z * strideC)

// gr_conv_forward_<BM>x<BN>: y (m = images·outPositions × n = filters) ← im2col(x)·wᵀ, w n × k (k = patch).
// gr_conv_weights_<BM>x<BN>: dw (m = filters × n = patch) ← dyᵀ·im2col(x), dy k × m (k = images·outPositions).
// Grid and splits as the plain products; the result is written, never accumulated.
#define GEMM_CONV_PARAMS(A, B, C)                                                                                   \
    const float *A, const float *B, float *C, int m, int n, int k, int height, int width, int channels,            \
            int kernelH, int kernelW, int stride, int padding, int outH, int outW, int kChunk, long long splitStride
#define GEMM_CONV_GEOMETRY {height, width, channels, kernelH, kernelW, stride, padding, outH, outW}
#define GEMM_CONV_FORWARD_BODY(BM, BN)                                                                              \
    {                                                                                                               \
        __shared__ GemmShared<BM, BN, false, true> sh;                                                             \
        GemmGeometry g = GEMM_CONV_GEOMETRY;                                                                        \
        gemm_body<BM, BN, false, true, GEMM_CONV_FORWARD>(sh, x, 0, w, k, y, n, m, n, k, 1.0f, 0.0f, kChunk,        \
                                                          splitStride, g);                                         \
    }
#define GEMM_CONV_WEIGHTS_BODY(BM, BN)                                                                              \
    {                                                                                                               \
        __shared__ GemmShared<BM, BN, true, false> sh;                                                             \
        GemmGeometry g = GEMM_CONV_GEOMETRY;                                                                        \
        gemm_body<BM, BN, true, false, GEMM_CONV_WEIGHTS>(sh, dy, m, x, 0, dw, n, m, n, k, 1.0f, 0.0f, kChunk,      \
                                                          splitStride, g);                                         \
    }

extern "C" __global__ void __launch_bounds__(256, 1) gr_gemm_nn_128x128(GEMM_PLAIN_PARAMS)
    GEMM_LARGE(false, false)
extern "C" __global__ void __launch_bounds__(256, 1) gr_gemm_nt_128x128(GEMM_PLAIN_PARAMS)
    GEMM_LARGE(false, true)
extern "C" __global__ void __launch_bounds__(256, 1) gr_gemm_tn_128x128(GEMM_PLAIN_PARAMS)
    GEMM_LARGE(true, false)
extern "C" __global__ void __launch_bounds__(256, 1) gr_gemm_tt_128x128(GEMM_PLAIN_PARAMS)
    GEMM_LARGE(true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nn_64x64(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(64, 64, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nt_64x64(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(64, 64, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tn_64x64(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(64, 64, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tt_64x64(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(64, 64, true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_forward_64x64(GEMM_CONV_PARAMS(x, w, y))
    GEMM_CONV_FORWARD_BODY(64, 64)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_weights_64x64(GEMM_CONV_PARAMS(dy, x, dw))
    GEMM_CONV_WEIGHTS_BODY(64, 64)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nn_128x32(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(128, 32, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nt_128x32(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(128, 32, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tn_128x32(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(128, 32, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tt_128x32(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(128, 32, true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_forward_128x32(GEMM_CONV_PARAMS(x, w, y))
    GEMM_CONV_FORWARD_BODY(128, 32)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_weights_128x32(GEMM_CONV_PARAMS(dy, x, dw))
    GEMM_CONV_WEIGHTS_BODY(128, 32)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nn_32x128(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(32, 128, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nt_32x128(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(32, 128, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tn_32x128(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(32, 128, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tt_32x128(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(32, 128, true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_forward_32x128(GEMM_CONV_PARAMS(x, w, y))
    GEMM_CONV_FORWARD_BODY(32, 128)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_weights_32x128(GEMM_CONV_PARAMS(dy, x, dw))
    GEMM_CONV_WEIGHTS_BODY(32, 128)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nn_256x16(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(256, 16, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nt_256x16(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(256, 16, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tn_256x16(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(256, 16, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tt_256x16(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(256, 16, true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_forward_256x16(GEMM_CONV_PARAMS(x, w, y))
    GEMM_CONV_FORWARD_BODY(256, 16)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_weights_256x16(GEMM_CONV_PARAMS(dy, x, dw))
    GEMM_CONV_WEIGHTS_BODY(256, 16)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nn_16x256(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(16, 256, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_nt_16x256(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(16, 256, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tn_16x256(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(16, 256, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_tt_16x256(GEMM_PLAIN_PARAMS)
    GEMM_PLAIN(16, 256, true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_forward_16x256(GEMM_CONV_PARAMS(x, w, y))
    GEMM_CONV_FORWARD_BODY(16, 256)
extern "C" __global__ void __launch_bounds__(256, 2) gr_conv_weights_16x256(GEMM_CONV_PARAMS(dy, x, dw))
    GEMM_CONV_WEIGHTS_BODY(16, 256)

extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_nn_64x64(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(64, 64, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_nt_64x64(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(64, 64, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_tn_64x64(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(64, 64, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_tt_64x64(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(64, 64, true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_nn_128x32(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(128, 32, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_nt_128x32(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(128, 32, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_tn_128x32(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(128, 32, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_tt_128x32(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(128, 32, true, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_nn_32x128(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(32, 128, false, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_nt_32x128(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(32, 128, false, true)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_tn_32x128(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(32, 128, true, false)
extern "C" __global__ void __launch_bounds__(256, 2) gr_gemm_batched_tt_32x128(GEMM_BATCHED_PARAMS)
    GEMM_BATCHED(32, 128, true, true)

// c ← alpha·Σ_z part[z·splitStride + e] + beta·c for the m×n elements e = i·n + j of c (row length ldc). Blocks of
// 32×8 threads: threadIdx.x picks one of 32 consecutive elements, threadIdx.y sums splits y, y+8, y+16, … in order,
// and the eight lane sums are added in lane order: a fixed order, so the same bits every run.
extern "C" __global__ void gr_gemm_reduce(const float* part, int splits, long long splitStride, int n, float* c,
                                          int ldc, float alpha, float beta) {
    __shared__ float lanes[8][33];
    long long e = (long long) blockIdx.x * 32 + threadIdx.x;
    bool inside = e < splitStride;
    float s = 0.0f;
    if (inside) {
        for (int z = threadIdx.y; z < splits; z += 8) {
            s += part[(long long) z * splitStride + e];
        }
    }
    lanes[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && inside) {
        float total = lanes[0][threadIdx.x];
        for (int y = 1; y < 8; y++) {
            total += lanes[y][threadIdx.x];
        }
        long long i = e / n;
        long long j = e - i * n;
        float* cij = c + i * ldc + j;
        float v = alpha == 0.0f ? 0.0f : alpha * total;
        if (beta != 0.0f) {
            v = fmaf(beta, *cij, v);
        }
        *cij = v;
    }
}
