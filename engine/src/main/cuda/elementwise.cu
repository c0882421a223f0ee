// Element-wise kernels: random fills, scale, axpy, the row-vector add, ReLU and its backward pass, dropout, and the
// SGD and Adam steps (CudaElementwise launches them).
//
// Design. Every kernel here is bound by memory bandwidth, so each moves its tensors with 16-byte (float4) loads and
// stores where it can. Tensors are views that may start at any float, so the launcher checks the addresses at run
// time: when all of a kernel's arrays share the same misalignment (address mod 16), it passes `head`, the number of
// leading elements to do one by one so that element `head` of every array is 16-byte aligned; the kernel then does
// `quads = (n − head) / 4` groups of four with vector accesses and the last (n − head) mod 4 elements one by one.
// When the arrays' alignments differ, the launcher passes head = n: everything goes the scalar way, still coalesced.
// Both parts are grid-stride loops (gr_ew_run), so any grid size covers any n.
//
// Arithmetic. The results are meant to be the CPU backend's to the last bit, and Java never fuses a·b + c, so every
// multiply and add that could be contracted into an FMA is written with a round-to-nearest intrinsic that nvcc must
// not contract (__fmul_rn, __fadd_rn, __fsub_rn; __fdiv_rn and __fsqrt_rn for Adam, IEEE like Java's float division
// and (float) Math.sqrt). No fmaf anywhere. Each operation keeps the CPU loop's order of evaluation.
#include "gridrun.cuh"

// Runs op over elements [0, n): op.quad(e) for the aligned groups of four starting at e = head, head + 4, …, and
// op.one(i) for the `head` elements before them and the ones after the last group.
template <class Op>
__device__ __forceinline__ void gr_ew_run(Op &op, int n, int head) {
    const long long quads = (long long) (n - head) >> 2;
    GR_FOR_EACH(k, quads) {
        op.quad(head + 4 * k);
    }
    const long long scalars = n - 4 * quads;
    GR_FOR_EACH(s, scalars) {
        op.one(s < head ? s : s + 4 * quads);
    }
}

__device__ __forceinline__ float4 gr_ew_load4(const float *p, long long e) {
    return *reinterpret_cast<const float4 *>(p + e);
}

__device__ __forceinline__ void gr_ew_store4(float *p, long long e, float4 v) {
    *reinterpret_cast<float4 *>(p + e) = v;
}

// ---- fillUniform: element i is draw i of CounterRng(seed, stream), as CounterRng.nextFloat() then low + width·u.

struct GrEwFillUniform {
    float *x;
    float low, width;
    unsigned long long key;

    __device__ __forceinline__ float value(long long i) const {
        // The top 24 bits, as a float (exact), times 2^-24 (exact): CounterRng.nextFloat().
        float u = (float) (unsigned) (gr_draw(key, (unsigned long long) i) >> 40) * 0x1.0p-24f;
        return __fadd_rn(low, __fmul_rn(width, u));
    }
    __device__ __forceinline__ void one(long long i) { x[i] = value(i); }
    __device__ __forceinline__ void quad(long long e) {
        gr_ew_store4(x, e, make_float4(value(e), value(e + 1), value(e + 2), value(e + 3)));
    }
};

extern "C" __global__ void gr_ew_fill_uniform(float *x, int n, int head, float low, float width, long long seed,
                                              long long stream) {
    GrEwFillUniform op{x, low, width, gr_key(seed, stream)};
    gr_ew_run(op, n, head);
}

// ---- scale: x ← alpha·x.

struct GrEwScale {
    float *x;
    float alpha;

    __device__ __forceinline__ void one(long long i) { x[i] = __fmul_rn(x[i], alpha); }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(x, e);
        a.x = __fmul_rn(a.x, alpha);
        a.y = __fmul_rn(a.y, alpha);
        a.z = __fmul_rn(a.z, alpha);
        a.w = __fmul_rn(a.w, alpha);
        gr_ew_store4(x, e, a);
    }
};

extern "C" __global__ void gr_ew_scale(float *x, int n, int head, float alpha) {
    GrEwScale op{x, alpha};
    gr_ew_run(op, n, head);
}

// ---- axpy: y ← y + alpha·x, the product rounded first (the CPU's yd[i] += alpha * xd[i]).

struct GrEwAxpy {
    const float *x;
    float *y;
    float alpha;

    __device__ __forceinline__ float f(float xv, float yv) const { return __fadd_rn(yv, __fmul_rn(alpha, xv)); }
    __device__ __forceinline__ void one(long long i) { y[i] = f(x[i], y[i]); }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(x, e);
        float4 b = gr_ew_load4(y, e);
        b.x = f(a.x, b.x);
        b.y = f(a.y, b.y);
        b.z = f(a.z, b.z);
        b.w = f(a.w, b.w);
        gr_ew_store4(y, e, b);
    }
};

extern "C" __global__ void gr_ew_axpy(const float *x, float *y, int n, int head, float alpha) {
    GrEwAxpy op{x, y, alpha};
    gr_ew_run(op, n, head);
}

// ---- addRowVector: x[r][j] += row[j]. x is walked flat (vectorised); the row's values come through the read-only
// cache, where a row of any length the trainer uses stays resident.

struct GrEwAddRow {
    const float *row;
    float *x;
    int cols;

    __device__ __forceinline__ void one(long long i) {
        x[i] = __fadd_rn(x[i], __ldg(row + (unsigned) i % (unsigned) cols));
    }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(x, e);
        int j = (int) ((unsigned) e % (unsigned) cols);
        float v[4] = {a.x, a.y, a.z, a.w};
#pragma unroll
        for (int c = 0; c < 4; c++) {
            v[c] = __fadd_rn(v[c], __ldg(row + j));
            j = j + 1 == cols ? 0 : j + 1;
        }
        gr_ew_store4(x, e, make_float4(v[0], v[1], v[2], v[3]));
    }
};

extern "C" __global__ void gr_ew_add_row_vector(const float *row, float *x, int n, int head, int cols) {
    GrEwAddRow op{row, x, cols};
    gr_ew_run(op, n, head);
}

// ---- relu: y ← Java's Math.max(x, 0f): x when x > 0, a NaN x itself, else +0 (also for −0). Not fmaxf, which
// returns 0 for a NaN x.

__device__ __forceinline__ float gr_ew_relu1(float x) {
    return x > 0.0f || x != x ? x : 0.0f;
}

struct GrEwRelu {
    const float *x;
    float *y;

    __device__ __forceinline__ void one(long long i) { y[i] = gr_ew_relu1(x[i]); }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(x, e);
        gr_ew_store4(y, e, make_float4(gr_ew_relu1(a.x), gr_ew_relu1(a.y), gr_ew_relu1(a.z), gr_ew_relu1(a.w)));
    }
};

extern "C" __global__ void gr_ew_relu(const float *x, float *y, int n, int head) {
    GrEwRelu op{x, y};
    gr_ew_run(op, n, head);
}

// ---- reluBackward: grad keeps its bits where y lies in (0, +inf], else becomes +0 (NaN y included): the CPU's
// integer mask. With t = bits(y) − 1 (as a signed int), y is in that range exactly when 0 ≤ t < bits(+inf).

__device__ __forceinline__ float gr_ew_relu_pass(float y, float g) {
    int t = __float_as_int(y) - 1;
    int mask = ~(t >> 31) & ((t - 0x7f800000) >> 31);
    return __int_as_float(__float_as_int(g) & mask);
}

struct GrEwReluBackward {
    const float *y;
    float *g;

    __device__ __forceinline__ void one(long long i) { g[i] = gr_ew_relu_pass(y[i], g[i]); }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(y, e);
        float4 b = gr_ew_load4(g, e);
        gr_ew_store4(g, e, make_float4(gr_ew_relu_pass(a.x, b.x), gr_ew_relu_pass(a.y, b.y),
                                       gr_ew_relu_pass(a.z, b.z), gr_ew_relu_pass(a.w, b.w)));
    }
};

extern "C" __global__ void gr_ew_relu_backward(const float *y, float *g, int n, int head) {
    GrEwReluBackward op{y, g};
    gr_ew_run(op, n, head);
}

// ---- dropout: the CPU's mask. Value (r, j) belongs to group j mod groups (groups = channels, or cols when every
// value is its own group); the group's draw is mix(key + (r·groups + group)·γ) with key = mix(seed ^ mix(stream)),
// and it drops when its top 53 bits, as a fraction, are below p: (h >>> 11) < threshold = ceil(p·2^53), which the
// launcher computes exactly (the CPU compares the same fraction with p in double). Kept values become x·scale with
// scale = 1/(1 − p) in float; dropped ones +0. Each value hashes its own group: recomputing a channel's hash per
// value is cheaper than any sharing between threads, and the kernel stays bound by memory.

struct GrEwDropout {
    const float *x;
    float *y;
    int cols, groups;
    unsigned long long key, threshold;
    float scale;

    __device__ __forceinline__ float f(float xv, unsigned r, int group) const {
        unsigned long long h = gr_mix(key + GR_GAMMA * ((unsigned long long) r * groups + group));
        return (h >> 11) < threshold ? 0.0f : __fmul_rn(xv, scale);
    }
    // Indices are below 2^31 (CudaBackend's sizes are ints): 32-bit division is several times cheaper than 64-bit.
    __device__ __forceinline__ void one(long long i) {
        unsigned r = (unsigned) i / (unsigned) cols;
        unsigned j = (unsigned) i - r * (unsigned) cols;
        y[i] = f(x[i], r, (int) (j % (unsigned) groups));
    }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(x, e);
        unsigned r = (unsigned) e / (unsigned) cols;
        int j = (int) ((unsigned) e - r * (unsigned) cols);
        int group = groups == cols ? j : (int) ((unsigned) j % (unsigned) groups);
        float v[4] = {a.x, a.y, a.z, a.w};
#pragma unroll
        for (int c = 0; c < 4; c++) {
            v[c] = f(v[c], r, group);
            // groups divides cols, so the group wraps to 0 whenever the column does.
            group = group + 1 == groups ? 0 : group + 1;
            if (++j == cols) {
                j = 0;
                r++;
            }
        }
        gr_ew_store4(y, e, make_float4(v[0], v[1], v[2], v[3]));
    }
};

extern "C" __global__ void gr_ew_dropout(const float *x, float *y, int n, int head, int cols, int groups,
                                         long long seed, long long stream, unsigned long long threshold,
                                         float scale) {
    unsigned long long key = gr_mix((unsigned long long) seed ^ gr_mix((unsigned long long) stream));
    GrEwDropout op{x, y, cols, groups, key, threshold, scale};
    gr_ew_run(op, n, head);
}

// ---- sgd without momentum: p ← p − lr·(g + wd·p).

struct GrEwSgd {
    float *p;
    const float *g;
    float lr, wd;

    __device__ __forceinline__ float f(float pv, float gv) const {
        return __fsub_rn(pv, __fmul_rn(lr, __fadd_rn(gv, __fmul_rn(wd, pv))));
    }
    __device__ __forceinline__ void one(long long i) { p[i] = f(p[i], g[i]); }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(p, e);
        float4 b = gr_ew_load4(g, e);
        gr_ew_store4(p, e, make_float4(f(a.x, b.x), f(a.y, b.y), f(a.z, b.z), f(a.w, b.w)));
    }
};

extern "C" __global__ void gr_ew_sgd(float *p, const float *g, int n, int head, float lr, float wd) {
    GrEwSgd op{p, g, lr, wd};
    gr_ew_run(op, n, head);
}

// ---- sgd with momentum: d = g + wd·p; v ← momentum·v + d; p ← p − lr·(nesterov ? d + momentum·v : v).

struct GrEwSgdMomentum {
    float *p;
    const float *g;
    float *v;
    float lr, momentum, wd;
    int nesterov;

    __device__ __forceinline__ void f(float &pv, float gv, float &vv) const {
        float d = __fadd_rn(gv, __fmul_rn(wd, pv));
        float vel = __fadd_rn(__fmul_rn(momentum, vv), d);
        vv = vel;
        pv = __fsub_rn(pv, __fmul_rn(lr, nesterov ? __fadd_rn(d, __fmul_rn(momentum, vel)) : vel));
    }
    __device__ __forceinline__ void one(long long i) {
        float pv = p[i], vv = v[i];
        f(pv, g[i], vv);
        v[i] = vv;
        p[i] = pv;
    }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(p, e);
        float4 b = gr_ew_load4(g, e);
        float4 c = gr_ew_load4(v, e);
        f(a.x, b.x, c.x);
        f(a.y, b.y, c.y);
        f(a.z, b.z, c.z);
        f(a.w, b.w, c.w);
        gr_ew_store4(v, e, c);
        gr_ew_store4(p, e, a);
    }
};

extern "C" __global__ void gr_ew_sgd_momentum(float *p, const float *g, float *v, int n, int head, float lr,
                                              float momentum, int nesterov, float wd) {
    GrEwSgdMomentum op{p, g, v, lr, momentum, wd, nesterov};
    gr_ew_run(op, n, head);
}

// ---- adam: d = g + wd·p; m ← beta1·m + (1 − beta1)·d; v ← beta2·v + ((1 − beta2)·d)·d;
// p ← p − (stepSize·m) / (sqrt(v)/correction2Sqrt + eps). oneMinusBeta1 and oneMinusBeta2 are the launcher's float
// subtractions, the same as the CPU's.

struct GrEwAdam {
    float *p;
    const float *g;
    float *m, *v;
    float stepSize, beta1, oneMinusBeta1, beta2, oneMinusBeta2, eps, correction2Sqrt, wd;

    __device__ __forceinline__ void f(float &pv, float gv, float &mv, float &vv) const {
        float d = __fadd_rn(gv, __fmul_rn(wd, pv));
        float mi = __fadd_rn(__fmul_rn(beta1, mv), __fmul_rn(oneMinusBeta1, d));
        float vi = __fadd_rn(__fmul_rn(beta2, vv), __fmul_rn(__fmul_rn(oneMinusBeta2, d), d));
        mv = mi;
        vv = vi;
        float denominator = __fadd_rn(__fdiv_rn(__fsqrt_rn(vi), correction2Sqrt), eps);
        pv = __fsub_rn(pv, __fdiv_rn(__fmul_rn(stepSize, mi), denominator));
    }
    __device__ __forceinline__ void one(long long i) {
        float pv = p[i], mv = m[i], vv = v[i];
        f(pv, g[i], mv, vv);
        m[i] = mv;
        v[i] = vv;
        p[i] = pv;
    }
    __device__ __forceinline__ void quad(long long e) {
        float4 a = gr_ew_load4(p, e);
        float4 b = gr_ew_load4(g, e);
        float4 c = gr_ew_load4(m, e);
        float4 d = gr_ew_load4(v, e);
        f(a.x, b.x, c.x, d.x);
        f(a.y, b.y, c.y, d.y);
        f(a.z, b.z, c.z, d.z);
        f(a.w, b.w, c.w, d.w);
        gr_ew_store4(m, e, c);
        gr_ew_store4(v, e, d);
        gr_ew_store4(p, e, a);
    }
};

extern "C" __global__ void gr_ew_adam(float *p, const float *g, float *m, float *v, int n, int head, float stepSize,
                                      float beta1, float oneMinusBeta1, float beta2, float oneMinusBeta2, float eps,
                                      float correction2Sqrt, float wd) {
    GrEwAdam op{p, g, m, v, stepSize, beta1, oneMinusBeta1, beta2, oneMinusBeta2, eps, correction2Sqrt, wd};
    gr_ew_run(op, n, head);
}

// ---- momentumInDouble: m = (float) (beta·m + rest·g) in double, rest = 1 − beta as the host computes it; both come as
// their bits (kernel arguments have no double). One thread per value, the host's roundings (no contraction).
extern "C" __global__ void gr_momentum_double(float *m, const float *g, long long n, long long betaBits,
                                              long long restBits) {
    double beta = __longlong_as_double(betaBits);
    double rest = __longlong_as_double(restBits);
    GR_FOR_EACH(i, n) {
        m[i] = (float) __dadd_rn(__dmul_rn(beta, (double) m[i]), __dmul_rn(rest, (double) g[i]));
    }
}

// ---- addToMean: a decoded gradient added to the mean of `workers` gradients (SimulatedCollective.addToMean):
// worker 0 writes, the others add in order, the last multiplies by `inverse` (1f/workers). One thread per value; the
// device codecs whose decode writes a dense gradient first (sparse lists, none's raw floats) finish with it.
extern "C" __global__ void gr_add_to_mean(const float* decoded, long long n, int worker, int workers, float inverse,
                                          float* mean) {
    GR_FOR_EACH(e, n) {
        float m = worker == 0 ? decoded[e] : __fadd_rn(mean[e], decoded[e]);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}
