// Reductions: column sums, softmax cross-entropy and accuracy (CudaReductions).
//
// Every sum has a fixed order that depends only on the shape, so results are the same bits run to run, and no
// kernel uses atomics:
//   - column sums are two-stage: gr_column_partials gives each block a tile of 32 columns × one chunk of rows and
//     writes one double partial sum per (chunk, column) to scratch; gr_column_finish has one warp per column add its
//     chunks (lane l takes chunks l, l+32, …) and then the 32 lane sums in lane order. The launcher picks the chunk
//     size from the shape alone, enough chunks that the first stage fills the GPU.
//   - softmax cross-entropy and accuracy give each row to one warp (8 rows per block of 256 threads), which suits
//     the 10 to 1000 classes of a classifier; each row's loss (or 0/1 hit) goes to scratch as a double and
//     gr_rows_finish, one block, adds them in a fixed order and records the first row whose label is not a class
//     index, which the launcher turns into the CPU backend's exception.
// Within a row the lane values meet in shared memory and are combined in lane order by every thread that needs the
// result (no shuffles of doubles, which the emulator need not offer).
#include "gridrun.cuh"

// The column tile of gr_column_partials: 32 columns (one warp across a row, coalesced) × 8 rows in flight.
#define GR_RED_COLS 32
#define GR_RED_ROWS 8
// Rows (warps) per block of the per-row kernels.
#define GR_RED_WARPS 8

// Stage 1 of column sums: block (blockIdx.x, blockIdx.y) adds rows [blockIdx.y·rowsPerChunk, …+rowsPerChunk) of
// columns [32·blockIdx.x, …+32) of x (rows × cols) in double and writes partials[blockIdx.y·cols + column].
// Block: 32 × 8 threads; thread (tx, ty) takes rows ty, ty+8, … of its chunk.
extern "C" __global__ void gr_column_partials(const float* x, int rows, int cols, int rowsPerChunk,
                                              double* partials) {
    __shared__ double part[GR_RED_ROWS][GR_RED_COLS];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int c = blockIdx.x * GR_RED_COLS + tx;
    long long start = (long long) blockIdx.y * rowsPerChunk;
    long long end = start + rowsPerChunk < rows ? start + rowsPerChunk : rows;
    double s = 0;
    if (c < cols) {
#pragma unroll 4
        for (long long r = start + ty; r < end; r += GR_RED_ROWS) {
            s += (double) x[r * cols + c];
        }
    }
    part[ty][tx] = s;
    __syncthreads();
    if (ty == 0 && c < cols) {
        double t = part[0][tx];
        for (int k = 1; k < GR_RED_ROWS; k++) {
            t += part[k][tx];
        }
        partials[(long long) blockIdx.y * cols + c] = t;
    }
}

// Stage 2 of column sums: out[c] ← beta·out[c] + Σ_chunks partials[chunk·cols + c], one warp per column (8 per
// block of 256 threads). With beta = 0 the old out is not read (it may be NaN), as on the CPU.
extern "C" __global__ void gr_column_finish(const double* partials, int chunks, int cols, float beta, float* out) {
    __shared__ double lanes[GR_RED_WARPS][32];
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    int c = blockIdx.x * GR_RED_WARPS + warp;
    double s = 0;
    if (c < cols) {
        for (int k = lane; k < chunks; k += 32) {
            s += partials[(long long) k * cols + c];
        }
    }
    lanes[warp][lane] = s;
    __syncthreads();
    if (lane == 0 && c < cols) {
        double t = lanes[warp][0];
        for (int l = 1; l < 32; l++) {
            t += lanes[warp][l];
        }
        float base = beta == 0.0f ? 0.0f : beta * out[c];
        out[c] = (float) ((double) base + t);
    }
}

// Whether a float label names a class in [0, classes): an integer value in range (NaN fails the first test).
__device__ __forceinline__ bool gr_red_is_class(float v, int classes) {
    return v >= 0.0f && (double) v < (double) classes && (float) (int) v == v;
}

// Java's Math.max on floats for the row maximum: a NaN wins, so it reaches the loss as on the CPU.
__device__ __forceinline__ float gr_red_max(float m, float v) {
    return (v != v || v > m) ? v : m;
}

// Softmax cross-entropy, one warp per row: the row maximum in float, Σ exp(x − max) in double, the loss
// log(Σ) − (x[label] − max) in double into rowLoss[row], and, when grad is not null,
// grad = (float) (exp(x − max)·gradScale/Σ), minus gradScale (in float) at the label: the CPU's arithmetic.
// grad may be logits: each thread reads its own elements before writing them, and x[label] is read before the
// first barrier, so before any element of the row is written. A row whose label is not a class gets no loss and no
// label term; gr_rows_finish reports it. Block: 256 threads (8 rows).
extern "C" __global__ void gr_softmax_xent_rows(const float* logits, int rows, int cols, const float* labels,
                                                float* grad, float gradScale, double* rowLoss) {
    __shared__ float maxima[GR_RED_WARPS][32];
    __shared__ double sums[GR_RED_WARPS][32];
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * GR_RED_WARPS + warp;
    bool active = row < rows;
    const float* x = logits + (long long) (active ? row : 0) * cols;
    int label = -1;
    float atLabel = 0.0f;
    float m = -__int_as_float(0x7f800000);
    if (active) {
        float v = labels[row];
        if (gr_red_is_class(v, cols)) {
            label = (int) v;
            atLabel = x[label];
        }
        for (int j = lane; j < cols; j += 32) {
            m = gr_red_max(m, x[j]);
        }
    }
    maxima[warp][lane] = m;
    __syncthreads();
    float mx = maxima[warp][0];
    for (int l = 1; l < 32; l++) {
        mx = gr_red_max(mx, maxima[warp][l]);
    }
    double s = 0;
    if (active) {
        for (int j = lane; j < cols; j += 32) {
            s += exp((double) (x[j] - mx));
        }
    }
    sums[warp][lane] = s;
    __syncthreads();
    if (!active) {
        return;
    }
    double sum = sums[warp][0];
    for (int l = 1; l < 32; l++) {
        sum += sums[warp][l];
    }
    if (lane == 0) {
        rowLoss[row] = label >= 0 ? log(sum) - (double) (atLabel - mx) : 0.0;
    }
    if (grad != 0) {
        float* g = grad + (long long) row * cols;
        double inv = (double) gradScale / sum;
        for (int j = lane; j < cols; j += 32) {
            float p = (float) (exp((double) (x[j] - mx)) * inv);
            g[j] = j == label ? p - gradScale : p;
        }
    }
}

// Accuracy, one warp per row: rowHit[row] = 1 when the first largest logit of the row is at its label, else 0.
// The CPU scans left to right replacing the best only by a strictly larger value, so its answer is the first index
// of the largest non-NaN value, or 0 when x[0] is NaN (nothing is larger than NaN); each lane keeps the first of
// its largest non-NaN values, and lane 0 merges them by value, then by index. Block: 256 threads (8 rows).
extern "C" __global__ void gr_count_correct_rows(const float* logits, int rows, int cols, const float* labels,
                                                 double* rowHit) {
    __shared__ float bestValue[GR_RED_WARPS][32];
    __shared__ int bestIndex[GR_RED_WARPS][32];
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * GR_RED_WARPS + warp;
    bool active = row < rows;
    float bv = 0.0f;
    int bi = -1;
    if (active) {
        const float* x = logits + (long long) row * cols;
        for (int j = lane; j < cols; j += 32) {
            float v = x[j];
            if (bi < 0 ? v == v : v > bv) {
                bv = v;
                bi = j;
            }
        }
    }
    bestValue[warp][lane] = bv;
    bestIndex[warp][lane] = bi;
    __syncthreads();
    if (!active || lane != 0) {
        return;
    }
    for (int l = 1; l < 32; l++) {
        int i = bestIndex[warp][l];
        float v = bestValue[warp][l];
        if (i >= 0 && (bi < 0 || v > bv || (v == bv && i < bi))) {
            bv = v;
            bi = i;
        }
    }
    if (cols > 0) {
        float first = logits[(long long) row * cols];
        if (first != first) {
            bi = 0;
        }
    }
    float v = labels[row];
    rowHit[row] = gr_red_is_class(v, cols) && (int) v == bi ? 1.0 : 0.0;
}

// The end of the per-row kernels, one block of 256 threads: result[0] (a double) = Σ rowValues in a fixed order
// (thread t adds rows t, t+256, …; thread 0 then adds the 256 sums in thread order), and the int after it = the
// first row whose label is not a class index in [0, classes), or −1.
extern "C" __global__ void gr_rows_finish(const double* rowValues, int rows, const float* labels, int classes,
                                          double* result) {
    __shared__ double sums[256];
    __shared__ int firstBad[256];
    int t = threadIdx.x;
    double s = 0;
    int bad = -1;
    for (int r = t; r < rows; r += 256) {
        if (gr_red_is_class(labels[r], classes)) {
            s += rowValues[r];
        } else if (bad < 0) {
            bad = r;
        }
    }
    sums[t] = s;
    firstBad[t] = bad;
    __syncthreads();
    if (t == 0) {
        double total = sums[0];
        int first = firstBad[0];
        for (int k = 1; k < 256; k++) {
            total += sums[k];
            int b = firstBad[k];
            if (b >= 0 && (first < 0 || b < first)) {
                first = b;
            }
        }
        result[0] = total;
        ((int*) (result + 1))[0] = first;
        // the bad label itself, so that a sum read after the labels' buffer holds the next batch still names it
        ((float*) (result + 1))[1] = first >= 0 ? labels[first] : 0.0f;
    }
}
