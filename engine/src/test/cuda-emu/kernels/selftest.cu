// Kernels that show what the host emulator catches (CudaEmulatorTest): right ones whose results are exact, and
// wrong ones (a missing barrier, barriers that deadlock, an out-of-bounds write) that a GPU may let pass silently.
#include "../../../main/cuda/gridrun.cuh"

// Each block's sum of its 256 values of x, by the usual tree in shared memory: exact for small integers. Without
// the barrier inside the tree (`racy`) a thread reads partial sums before the others have written them.
template <bool racy>
__device__ void block_sum(const float* x, float* sums, int n) {
    __shared__ float partial[256];
    unsigned t = threadIdx.x;
    long long i = (long long) blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) {
            partial[t] += partial[t + half];
        }
        if (!racy) {
            __syncthreads();
        }
    }
    if (t == 0) {
        sums[blockIdx.x] = partial[0];
    }
}

extern "C" __global__ void gr_selftest_block_sum(const float* x, float* sums, int n) {
    block_sum<false>(x, sums, n);
}

extern "C" __global__ void gr_selftest_block_sum_racy(const float* x, float* sums, int n) {
    block_sum<true>(x, sums, n);
}

// Warp shuffles, 32 values of x per warp: `down` gets each warp's sum by __shfl_down_sync (lane 0's), `butterfly`
// every lane's sum by __shfl_xor_sync, `broadcast` lane 5's value, `wide` the warp's sum in double, and `mirrored`
// the 64-bit id of lane 31 - lane.
extern "C" __global__ void gr_selftest_warp(const float* x, float* down, float* butterfly, float* broadcast,
                                            double* wide, long long* mirrored) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    float v = x[t];
    float sum = v;
    double dsum = v;
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
        dsum += __shfl_down_sync(0xffffffffu, dsum, offset);
    }
    float all = v;
    for (int mask = 1; mask < 32; mask *= 2) {
        all += __shfl_xor_sync(0xffffffffu, all, mask);
    }
    if (lane == 0) {
        down[t / 32] = sum;
        wide[t / 32] = dsum;
    }
    butterfly[t] = all;
    broadcast[t] = __shfl_sync(0xffffffffu, v, 5);
    long long id = ((long long) t << 32) | t;
    mirrored[t] = __shfl_sync(0xffffffffu, id, 31 - (int) lane);
}

// Each warp's 32 values of x (small non-negative integers) sorted across its lanes by gr_warp_sort into sorted.
extern "C" __global__ void gr_selftest_warp_sort(const float* x, float* sorted) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    sorted[t] = (float) gr_warp_sort((unsigned) x[t]);
}

// `rounds` times: every thread passes its value to the thread before it through shared memory; so thread t ends
// with the value thread (t + rounds) mod blockDim.x started with.
extern "C" __global__ void gr_selftest_rotate(const float* x, float* y, int rounds) {
    __shared__ float ring[1024];
    unsigned t = threadIdx.x;
    float v = x[blockIdx.x * blockDim.x + t];
    for (int r = 0; r < rounds; r++) {
        ring[t] = v;
        __syncthreads();
        v = ring[(t + 1) % blockDim.x];
        __syncthreads();
    }
    y[blockIdx.x * blockDim.x + t] = v;
}

// Threads from `active` on return at once; a barrier waits only for the others, which then read each other's values.
extern "C" __global__ void gr_selftest_early_exit(float* out, int active) {
    __shared__ float values[1024];
    unsigned t = threadIdx.x;
    if (t >= (unsigned) active) {
        return;
    }
    values[t] = (float) t;
    __syncthreads();
    out[t] = values[(t + 1) % active];
}

// Lane 31 returns; lane 30 then shuffles down from it, reading a value no thread gives.
extern "C" __global__ void gr_selftest_shuffle_from_returned(float* out) {
    if (threadIdx.x == 31) {
        return;
    }
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, 1.0f, 1);
}

// Threads below 16 wait at one barrier, the others at another: a deadlock (undefined behaviour on a GPU).
extern "C" __global__ void gr_selftest_divergent_barrier(float* out) {
    if (threadIdx.x < 16) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1.0f;
}

// Lanes below 16 wait for their warp, the others for the block: neither can ever be released.
extern "C" __global__ void gr_selftest_stuck(float* out) {
    if (threadIdx.x < 16) {
        __syncwarp();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1.0f;
}

// One thread writes `value` at x[index], wherever that is.
extern "C" __global__ void gr_selftest_write_at(float* x, long long index, float value) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        x[index] = value;
    }
}

extern "C" __global__ void gr_selftest_copy(const float* x, float* y, int n) {
    GR_FOR_EACH(i, n) {
        y[i] = x[i];
    }
}

// Every thread writes its indices and the launch's dimensions, 12 values at its linear position in the grid.
extern "C" __global__ void gr_selftest_indices(unsigned* out) {
    unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned* o = out + 12 * (block * blockDim.x * blockDim.y * blockDim.z + thread);
    unsigned values[12] = {threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
                           blockDim.x,  blockDim.y,  blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
    for (int k = 0; k < 12; k++) {
        o[k] = values[k];
    }
}

// CUDA's mixed-type min and max and a few math functions, as the test expects them.
extern "C" __global__ void gr_selftest_math(float x, unsigned* bits, float* out) {
    bits[0] = min(-1, 1u);                   // compared as unsigned: 1
    bits[1] = max(-1, 1u);                   // 0xffffffff
    bits[2] = (unsigned) max(-3LL, 2);       // 2
    bits[3] = __float_as_uint(__int_as_float(__float_as_int(x)));
    out[0] = rsqrtf(x * x);
    out[1] = fmaxf(x, __uint_as_float(0x7fc00000u));  // the number, not the NaN
    out[2] = fmaf(x, x, -1.0f);
    out[3] = (float) exp(log((double) x));
}

// Each thread writes its id into shared memory and reads its lower neighbour's with no barrier in between: a race. On
// a GPU it may read the neighbour's value or what was there before; the emulator gives the one in a forward launch
// and the other in a reverse one.
extern "C" __global__ void gr_selftest_missing_barrier(float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = -1.0f;
    __syncthreads();
    s[threadIdx.x] = (float) threadIdx.x;
    out[threadIdx.x] = threadIdx.x > 0 ? s[threadIdx.x - 1] : 0.0f;
}

// Each block writes its index, then reads the block before's, with nothing ordering blocks within a launch: a race.
// On a GPU it may read the value written or the one before; the emulator gives the one when its blocks run first to
// last, the other when last to first.
extern "C" __global__ void gr_selftest_blocks_race(float* out) {
    if (threadIdx.x == 0) {
        out[blockIdx.x] = (float) blockIdx.x;
        out[gridDim.x + blockIdx.x] = blockIdx.x > 0 ? out[blockIdx.x - 1] : 0.0f;
    }
}

// Per warp, the ballot of its lanes' x < 0, written by lane 0.
extern "C" __global__ void gr_selftest_ballot(const float* x, unsigned* out) {
    unsigned word = __ballot_sync(0xffffffffu, x[blockIdx.x * blockDim.x + threadIdx.x] < 0.0f);
    if ((threadIdx.x & 31) == 0) {
        out[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = word;
    }
}

// Counts of x's values (0 to 7) in a block's shared memory. `racy`: every thread adds one to its value's counter, so
// threads with the same value race (on a GPU the lanes of one instruction lose all but one of their additions, the
// emulator's threads one after another lose none). Otherwise thread b counts bin b over all values, after a barrier.
template <bool racy>
__device__ void shared_histogram(const float* x, float* counts, int n) {
    __shared__ float values[256];
    __shared__ float bins[8];
    unsigned t = threadIdx.x;
    if (t < 8) {
        bins[t] = 0.0f;
    }
    values[t] = t < (unsigned) n ? x[t] : -1.0f;
    __syncthreads();
    if (racy) {
        if (values[t] >= 0.0f) {
            bins[(int) values[t]] += 1.0f;
        }
    } else if (t < 8) {
        for (int i = 0; i < n; i++) {
            bins[t] += values[i] == (float) t ? 1.0f : 0.0f;
        }
    }
    __syncthreads();
    if (t < 8) {
        counts[t] = bins[t];
    }
}

extern "C" __global__ void gr_selftest_histogram(const float* x, float* counts, int n) {
    shared_histogram<false>(x, counts, n);
}

extern "C" __global__ void gr_selftest_histogram_racy(const float* x, float* counts, int n) {
    shared_histogram<true>(x, counts, n);
}

// Each lane writes x into shared memory and reads its neighbour's (lane ^ 1); `synced` puts a __syncwarp between,
// which orders a warp's shared memory on a GPU; a shuffle between (the other variant) does not.
template <bool synced>
__device__ void warp_exchange(const float* x, float* y) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = x[blockIdx.x * blockDim.x + t];
    if (synced) {
        __syncwarp();
    } else {
        s[t] += __shfl_xor_sync(0xffffffffu, 0.0f, 1);
    }
    y[blockIdx.x * blockDim.x + t] = s[t ^ 1];
}

extern "C" __global__ void gr_selftest_warp_exchange(const float* x, float* y) {
    warp_exchange<true>(x, y);
}

extern "C" __global__ void gr_selftest_warp_exchange_racy(const float* x, float* y) {
    warp_exchange<false>(x, y);
}

// The lower half of the block writes its part of shared memory, then every thread reads its own element: the upper
// half reads what no thread of its block wrote (on a GPU, whatever the memory held; here, what the last block left).
extern "C" __global__ void gr_selftest_uninitialised(float* out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    if (t < blockDim.x / 2) {
        s[t] = (float) t;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t];
}

// gr_selftest_copy for blocks of at most 64 threads (GR_SELFTEST_BOUND, a macro as kernels spell theirs): ptxas
// fits its registers to that bound, and a GPU refuses a larger block.
#define GR_SELFTEST_BOUND 64
extern "C" __global__ void __launch_bounds__(GR_SELFTEST_BOUND, 2) gr_selftest_bounded_copy(const float* x, float* y,
                                                                                            int n) {
    GR_FOR_EACH(i, n) {
        y[i] = x[i];
    }
}

// Copies 4 floats a thread with one 16-byte load and store from x + offset: an address a GPU faults on unless offset
// is a multiple of 4 (the race-checking emulator says so; the plain one may crash its host on such a load).
extern "C" __global__ void gr_selftest_load4(const float* x, float* y, int offset) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = *reinterpret_cast<const float4*>(x + offset + 4 * t);
    *reinterpret_cast<float4*>(y + 4 * t) = v;
}

// Reads a double a thread from the floats of x at x + offset + 2t: an 8-byte load a GPU faults on for an odd offset,
// which x86 makes without complaint (only the race-checking emulator, which sees every access's size, says so).
extern "C" __global__ void gr_selftest_load_double(const float* x, double* y, int offset) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    y[t] = *reinterpret_cast<const double*>(x + offset + 2 * t);
}

// __ldg of memory the launch writes (the race check's read-only-cache rule). Each thread doubles its value in place,
// then reads it back through __ldg: no other thread touches it, but the read-only cache may still hold the old value.
extern "C" __global__ void gr_selftest_ldg_after_write(float* x, float* y, int n) {
    int i = threadIdx.x;
    if (i < n) {
        x[i] = 2.0f * x[i];
        y[i] = __ldg(x + i);
    }
}

// Each thread reads its value through __ldg and then overwrites it: the order the rule forbids as well.
extern "C" __global__ void gr_selftest_ldg_then_write(float* x, int n) {
    int i = threadIdx.x;
    if (i < n) {
        x[i] = __ldg(x + i) + 1.0f;
    }
}

// Reads an input no thread writes through __ldg: what the read-only cache is for.
extern "C" __global__ void gr_selftest_ldg_input(const float* x, float* y, int n) {
    GR_FOR_EACH(i, n) {
        y[i] = 3.0f * __ldg(x + i);
    }
}
