// The CUDA that gridrun's kernels may use, for the host emulator.
//
// scripts/build-cuda-emu.sh force-includes this header (g++ -include) into every kernel source, compiled as C++17
// with -DGRIDRUN_EMULATED. Each thread of a block runs as a fiber on the launching OS thread (emu_runtime.cpp),
// switching only at barriers and warp operations, so the device code below is ordinary host code: `__shared__` is a
// `static thread_local` (every fiber of the running block sees the same variable, as every thread of a CUDA block
// sees the same shared memory), threadIdx and friends are set by the scheduler for the running fiber, and barriers
// and shuffles call into the scheduler. Here is what gridrun.cuh allows, and the vector types and rounded arithmetic
// kernels use; the rest fails to compile: `extern __shared__` (an extern static), atomics (a static_assert),
// textures, inline PTX, intrinsics not listed.
#pragma once

// Everything a kernel source might include comes first: each source is included inside a namespace of its own (so
// that two sources may both define a helper of the same name, as two CUDA modules may), where a standard header
// included for the first time would land in the wrong namespace.
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __shared__ static thread_local
#define __launch_bounds__(...)

struct dim3 {
    unsigned x, y, z;
};
typedef dim3 uint3;

#define GR_EMU_API __attribute__((visibility("hidden")))

// Set by the scheduler before it runs a fiber. Plain globals, as the emulator runs one launch at a time: a
// thread-local variable of a dlopen'ed library costs a call (__tls_get_addr) on every read.
extern uint3 threadIdx GR_EMU_API;
extern uint3 blockIdx GR_EMU_API;
extern dim3 blockDim GR_EMU_API;
extern dim3 gridDim GR_EMU_API;
constexpr int warpSize = 32;

namespace gr_emu {
// Warp operations; a lane that arrives at a different one than its warp's other lanes is an error.
enum WarpOp : int { SYNCWARP, SHFL, SHFL_DOWN, SHFL_XOR, BALLOT };

GR_EMU_API void syncthreads(const char* file, int line);
// Waits for every live lane of the warp, then returns the 64-bit value lane `source` deposited (see the shuffles);
// for BALLOT, the bits of the lanes whose value is not 0.
GR_EMU_API uint64_t warp(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const char* file, int line);

template <class T>
T shuffle(WarpOp op, unsigned mask, T value, int arg, int width, const char* file, int line) {
    static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                  "shuffles move float, double, int, unsigned, long long or unsigned long long values");
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof value);
    bits = warp(op, mask, bits, arg, width, file, line);
    std::memcpy(&value, &bits, sizeof value);
    return value;
}
}  // namespace gr_emu

// The call site (file, line) rides along as default arguments, so that the emulator can say where each thread
// waits when a barrier is reached from two places or never released.
inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    gr_emu::syncthreads(file, line);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
    gr_emu::warp(gr_emu::SYNCWARP, mask, 0, 0, warpSize, file, line);
}
template <class T>
inline T __shfl_sync(unsigned mask, T value, int srcLane, int width = warpSize, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE()) {
    return gr_emu::shuffle(gr_emu::SHFL, mask, value, srcLane, width, file, line);
}
// The lanes whose predicate holds, bit i for lane i; every live lane of the warp takes part.
inline unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                              int line = __builtin_LINE()) {
    return (unsigned) gr_emu::warp(gr_emu::BALLOT, mask, predicate != 0 ? 1 : 0, 0, warpSize, file, line);
}
// The number of set bits.
inline int __popc(unsigned x) {
    return __builtin_popcount(x);
}
// The number of zero bits above the highest set bit (32 for 0).
inline int __clz(unsigned x) {
    return x == 0 ? 32 : __builtin_clz(x);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = warpSize,
                          const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return gr_emu::shuffle(gr_emu::SHFL_DOWN, mask, value, (int) delta, width, file, line);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T value, int laneMask, int width = warpSize,
                         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return gr_emu::shuffle(gr_emu::SHFL_XOR, mask, value, laneMask, width, file, line);
}

// Device math. The float and double overloads of exp, log, sqrt, fabs, fmax, fmin and fma come from <cmath> and
// <math.h> as CUDA has them; rsqrtf is CUDA's own (exact here, within 2 ulp on a GPU).
inline float rsqrtf(float x) {
    return 1.0f / sqrtf(x);
}

// CUDA's min and max: defined for every pair of arithmetic types, in the type the usual arithmetic conversions give
// (so min(int, unsigned) compares as unsigned, as on the GPU); floating-point ones ignore a NaN as fminf/fmaxf do.
template <class A, class B, class C = std::common_type_t<A, B>>
inline std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>, C> min(A a, B b) {
    if constexpr (std::is_floating_point_v<C>) {
        return std::fmin((C) a, (C) b);
    } else {
        return (C) a < (C) b ? (C) a : (C) b;
    }
}
template <class A, class B, class C = std::common_type_t<A, B>>
inline std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>, C> max(A a, B b) {
    if constexpr (std::is_floating_point_v<C>) {
        return std::fmax((C) a, (C) b);
    } else {
        return (C) a < (C) b ? (C) b : (C) a;
    }
}

inline unsigned __float_as_uint(float x) {
    unsigned u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}
inline float __uint_as_float(unsigned u) {
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}
inline long long __double_as_longlong(double x) {
    long long bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}
inline double __longlong_as_double(long long bits) {
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}
inline int __float_as_int(float x) {
    return (int) __float_as_uint(x);
}
inline float __int_as_float(int i) {
    return __uint_as_float((unsigned) i);
}
// __ldg: a load through the read-only data cache, which is not kept coherent with the launch's own stores, so only
// of memory no thread of the launch writes. The race-checking build (-fsanitize=thread) records each one and fails
// the launch where a byte is both read so and written, in either order (emu_race.cpp); there it is a macro, so that
// the failure names the caller's line, and evaluates its argument twice (gridrun's kernels pass an address sum).
#ifdef __SANITIZE_THREAD__
namespace gr_emu {
GR_EMU_API void read_only_load(const void* p, unsigned size);
}  // namespace gr_emu
#define __ldg(p) (gr_emu::read_only_load((p), (unsigned) sizeof *(p)), *(p))
#else
template <class T>
inline T __ldg(const T* p) {
    return *p;
}
#endif

// A NaN result as a GPU writes it: PTX's float arithmetic gives the canonical 0x7FFFFFFF whatever NaN went in,
// where x86 keeps an operand's payload; a kernel whose output must be the host's bits has to canonicalise it.
inline float gr_emu_gpu_nan(float r) {
    return r != r ? __uint_as_float(0x7FFFFFFFu) : r;
}

// Arithmetic rounded to nearest, never contracted into an FMA (the build passes -ffp-contract=off for everything),
// a NaN result as the GPU's.
inline float __fadd_rn(float a, float b) {
    return gr_emu_gpu_nan(a + b);
}
inline float __fsub_rn(float a, float b) {
    return gr_emu_gpu_nan(a - b);
}
inline float __fmul_rn(float a, float b) {
    return gr_emu_gpu_nan(a * b);
}
inline float __fdiv_rn(float a, float b) {
    return gr_emu_gpu_nan(a / b);
}
inline float __fsqrt_rn(float a) {
    return gr_emu_gpu_nan(sqrtf(a));
}
inline float __fmaf_rn(float a, float b, float c) {
    return gr_emu_gpu_nan(fmaf(a, b, c));
}
inline double __dadd_rn(double a, double b) {
    return a + b;
}
inline double __dsub_rn(double a, double b) {
    return a - b;
}
inline double __dmul_rn(double a, double b) {
    return a * b;
}

// CUDA's vector types for 8- and 16-byte loads, aligned as on the GPU. A GPU faults on a vector load or store at an
// address that is not a multiple of its size (a float4 from a float array at an odd offset); x86 may load it, or
// fault and crash the JVM. So copying one from or to such an address fails the launch here, naming the place of a
// load (the copy constructor's call site) or the kernel of a store.
namespace gr_emu {
GR_EMU_API void misaligned_vector(const void* p, unsigned size, bool write, const char* file, int line);

inline void check_vector(const void* p, unsigned size, bool write, const char* file, int line) {
    if (((uintptr_t) p & (size - 1)) != 0) {
        misaligned_vector(p, size, write, file, line);
    }
}

// Copies a vector of `size` bytes after checking where it comes from and (a store) where it goes.
inline void copy_vector(void* to, const void* from, unsigned size, bool store, const char* file, int line) {
    check_vector(from, size, false, file, line);
    if (store) {
        check_vector(to, size, true, file, line);
    }
    std::memcpy(to, from, size);
}
}  // namespace gr_emu

// A load is a copy construction (its call site is the place named), a store an assignment.
#define GR_EMU_CHECKED_COPIES(V)                                                                       \
    V(const V& v, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {                \
        gr_emu::copy_vector(this, &v, sizeof(V), false, file, line);                                 \
    }                                                                                                \
    V& operator=(const V& v) {                                                                       \
        gr_emu::copy_vector(this, &v, sizeof(V), true, nullptr, 0);                                  \
        return *this;                                                                                \
    }

// Members start at 0 so that the default constructor is constexpr: a `__shared__` array of them (a static
// thread_local) is then initialised as the program loads, not at first use behind a guard variable that the race
// check would take for shared memory read before any thread wrote it.
struct __attribute__((aligned(8))) float2 {
    float x = 0, y = 0;

    constexpr float2() = default;
    constexpr float2(float x_, float y_) : x(x_), y(y_) {}
    GR_EMU_CHECKED_COPIES(float2)
};
struct __attribute__((aligned(16))) float4 {
    float x = 0, y = 0, z = 0, w = 0;

    constexpr float4() = default;
    constexpr float4(float x_, float y_, float z_, float w_) : x(x_), y(y_), z(z_), w(w_) {}
    GR_EMU_CHECKED_COPIES(float4)
};
#undef GR_EMU_CHECKED_COPIES
inline float2 make_float2(float x, float y) {
    return {x, y};
}
inline float4 make_float4(float x, float y, float z, float w) {
    return {x, y, z, w};
}

// Sums in gridrun have a fixed order (the same bits run to run), so no kernel may use an atomic.
#define GR_EMU_FORBID(name)                                                                     \
    template <class... A>                                                                       \
    void name(A...) {                                                                           \
        static_assert(sizeof...(A) == ~std::size_t(0), #name ": gridrun kernels use no atomics"); \
    }
GR_EMU_FORBID(atomicAdd)
GR_EMU_FORBID(atomicSub)
GR_EMU_FORBID(atomicExch)
GR_EMU_FORBID(atomicMin)
GR_EMU_FORBID(atomicMax)
GR_EMU_FORBID(atomicInc)
GR_EMU_FORBID(atomicDec)
GR_EMU_FORBID(atomicCAS)
GR_EMU_FORBID(atomicAnd)
GR_EMU_FORBID(atomicOr)
GR_EMU_FORBID(atomicXor)
#undef GR_EMU_FORBID

// Launching by name: the build script registers every `extern "C" __global__ void NAME(` it finds with
// register_kernel(NAME), which records how to unpack the launcher's 64-bit argument slots into the parameters, and
// the most threads a block may have (the first argument of its __launch_bounds__).
namespace gr_emu {
// The ordinals of org.gridrun.engine.backend.cuda.KernelArgs.Kind.
enum Kind : int { ADDRESS, INT, FLOAT, LONG };

using Invoke = void (*)(void (*kernel)(), const uint64_t* args);

struct Kernel {
    const char* name;
    void (*entry)();
    Invoke invoke;
    int params;
    const Kind* kinds;
    const char* const* types;
    unsigned max_threads;  // its __launch_bounds__, else 1024: a GPU refuses a larger block
};

GR_EMU_API void add_kernel(const Kernel& kernel);

// What a parameter of type T takes: its KernelArgs kind, a name for messages, and how to read it from a slot.
template <class T>
struct Param {
    static_assert(std::is_pointer_v<T> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
                          (std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)),
                  "kernel parameters are pointers, int, unsigned, float, long long or unsigned long long");
    static constexpr Kind kind = std::is_pointer_v<T> ? ADDRESS
                                 : std::is_same_v<T, float> ? FLOAT
                                 : sizeof(T) == 4 ? INT
                                                  : LONG;  // 64-bit integers, and a double's bits
    static constexpr const char* name = std::is_pointer_v<T> ? "a pointer"
                                        : std::is_same_v<T, float> ? "a float"
                                        : std::is_same_v<T, double> ? "a double"
                                        : sizeof(T) == 4 ? "a 32-bit int"
                                                         : "a 64-bit int";

    static T from(uint64_t slot) {
        if constexpr (std::is_pointer_v<T>) {
            return reinterpret_cast<T>(static_cast<uintptr_t>(slot));
        } else if constexpr (sizeof(T) == 4) {
            auto low = static_cast<uint32_t>(slot);
            T value;
            std::memcpy(&value, &low, sizeof value);
            return value;
        } else {
            T value;
            std::memcpy(&value, &slot, sizeof value);
            return value;
        }
    }
};

template <class... P, std::size_t... I>
void call(void (*kernel)(P...), const uint64_t* args, std::index_sequence<I...>) {
    kernel(Param<P>::from(args[I])...);
}

template <class... P>
void invoke(void (*entry)(), const uint64_t* args) {
    call(reinterpret_cast<void (*)(P...)>(entry), args, std::index_sequence_for<P...>{});
}

template <class... P>
bool register_kernel(const char* name, void (*kernel)(P...), unsigned max_threads) {
    // One extra entry, so that a kernel without parameters still has arrays.
    static constexpr Kind kinds[] = {Param<P>::kind..., ADDRESS};
    static constexpr const char* types[] = {Param<P>::name..., ""};
    add_kernel({name, reinterpret_cast<void (*)()>(kernel), &invoke<P...>, (int) sizeof...(P), kinds, types,
                max_threads});
    return true;
}
}  // namespace gr_emu
