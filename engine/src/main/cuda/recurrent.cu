// Sequence models: the embedding lookup and its backward pass, and the LSTM cell (CudaRecurrent.java launches them).
//
// Each matches the CPU backend's CpuRecurrentKernels: σ and tanh in double precision from exp alone, rounded once;
// the cell's products and sums float32 in the same order, with the rounded intrinsics so nothing is contracted.

#include "gridrun.cuh"

__device__ __forceinline__ float gr_seq_sigmoid(float x) {
    return (float) (1.0 / (1.0 + exp(-(double) x)));
}

__device__ __forceinline__ float gr_seq_tanh(float x) {
    return (float) (2.0 / (1.0 + exp(-2.0 * (double) x)) - 1.0);
}

// out[i][j] = table[ids[i]][j] for m rows of e values; an id outside [0, v) gives a zero row (the CPU backend
// rejects it before calling).
extern "C" __global__ void gr_seq_embedding(const float *table, const float *ids, float *out, int m, int e, int v) {
    GR_FOR_EACH(k, (long long) m * e) {
        long long i = k / e;
        int j = (int) (k - i * e);
        int r = (int) ids[i];
        out[k] = r >= 0 && r < v ? table[(long long) r * e + j] : 0.0f;
    }
}

// dTable[ids[i]][j] += dy[i][j], i increasing. Thread (j, p) of e × parts owns column j of the table rows r with
// r % parts == p: it walks the ids in order and adds the rows whose id it owns, so repeated ids sum in the CPU's order
// without atomics, and a column's rows are shared by parts threads (a warp: one p, 32 consecutive columns).
extern "C" __global__ void gr_seq_embedding_backward(const float *dy, const float *ids, float *dTable, int m, int e,
                                                     int v, int parts) {
    GR_FOR_EACH(k, (long long) e * parts) {
        int p = (int) (k / e);
        int j = (int) (k - (long long) p * e);
        for (int i = 0; i < m; i++) {
            int r = (int) ids[i];
            if (r >= 0 && r < v && r % parts == p) {
                float *cell = dTable + (long long) r * e + j;
                *cell = __fadd_rn(*cell, dy[(long long) i * e + j]);
            }
        }
    }
}

// One LSTM step for rows × units cells: g (rows × 4·units, gates i f g o) becomes the activations; c and h.
extern "C" __global__ void gr_seq_lstm_cell(float *g, const float *cp, float *c, float *h, int rows, int units) {
    GR_FOR_EACH(k, (long long) rows * units) {
        long long r = k / units;
        long long j = k - r * units;
        float *gr = g + 4 * units * r;
        float i = gr_seq_sigmoid(gr[j]);
        float f = gr_seq_sigmoid(gr[units + j]);
        float z = gr_seq_tanh(gr[2 * units + j]);
        float o = gr_seq_sigmoid(gr[3 * units + j]);
        gr[j] = i;
        gr[units + j] = f;
        gr[2 * units + j] = z;
        gr[3 * units + j] = o;
        float cell = __fadd_rn(__fmul_rn(f, cp[k]), __fmul_rn(i, z));
        c[k] = cell;
        h[k] = __fmul_rn(o, gr_seq_tanh(cell));
    }
}

// The backward pass of gr_seq_lstm_cell: dg (may be g) gets the pre-activations' gradient, dc becomes cp's.
extern "C" __global__ void gr_seq_lstm_cell_backward(const float *g, const float *cp, const float *c, const float *dh,
                                                     float *dc, float *dg, int rows, int units) {
    GR_FOR_EACH(k, (long long) rows * units) {
        long long r = k / units;
        long long j = k - r * units;
        const float *gr = g + 4 * units * r;
        float *dr = dg + 4 * units * r;
        float i = gr[j];
        float f = gr[units + j];
        float z = gr[2 * units + j];
        float o = gr[3 * units + j];
        float t = gr_seq_tanh(c[k]);
        float dOut = dh[k];
        float dCell = __fadd_rn(dc[k], __fmul_rn(__fmul_rn(dOut, o), __fsub_rn(1.0f, __fmul_rn(t, t))));
        dr[j] = __fmul_rn(__fmul_rn(__fmul_rn(dCell, z), i), __fsub_rn(1.0f, i));
        dr[units + j] = __fmul_rn(__fmul_rn(__fmul_rn(dCell, cp[k]), f), __fsub_rn(1.0f, f));
        dr[2 * units + j] = __fmul_rn(__fmul_rn(dCell, i), __fsub_rn(1.0f, __fmul_rn(z, z)));
        dr[3 * units + j] = __fmul_rn(__fmul_rn(__fmul_rn(dOut, t), o), __fsub_rn(1.0f, o));
        dc[k] = __fmul_rn(dCell, f);
    }
}
