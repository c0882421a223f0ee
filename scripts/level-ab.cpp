// The level quantizers' kernels of two PTX builds of quantize.cu side by side on one GPU, without Java: qsgd, qinf and
// nuq encodes (gr_level_uniform_fused, gr_level_search_fused) and the decode into the mean (gr_level_decode_mean) on
// 11 M values in network-wide buckets of 8192, each kernel's best of REPS event-timed launches beside a device copy,
// and every payload and mean of the new build compared byte for byte with the old's. Exits 3 when they differ.
//
//   here:  git show REV:engine/src/main/resources/org/gridrun/engine/backend/cuda/quantize.ptx > target/ab/old.ptx
//          cp engine/src/main/resources/org/gridrun/engine/backend/cuda/quantize.ptx target/ab/new.ptx
//          g++ -O2 -std=c++17 -o target/ab/level-ab scripts/level-ab.cpp -ldl   (needs no CUDA toolkit)
//   there: target/ab/level-ab target/ab/old.ptx target/ab/new.ptx [REPS, default 20; 0 runs each kernel once, for
//          ncu --kernel-name regex:gr_level]
// The driver is opened with dlopen, so the binary builds where there is no GPU and runs where there is one.
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef void* CUfunction;
#define DRIVER(name, ...) typedef CUresult (*name##_t)(__VA_ARGS__); static name##_t name;
DRIVER(cuInit, unsigned)
DRIVER(cuDeviceGet, int*, int)
DRIVER(cuDevicePrimaryCtxRetain, void**, int)
DRIVER(cuCtxSetCurrent, void*)
DRIVER(cuModuleLoadData, void**, const void*)
DRIVER(cuModuleGetFunction, CUfunction*, void*, const char*)
DRIVER(cuMemAlloc_v2, CUdeviceptr*, size_t)
DRIVER(cuMemcpyHtoD_v2, CUdeviceptr, const void*, size_t)
DRIVER(cuMemcpyDtoH_v2, void*, CUdeviceptr, size_t)
DRIVER(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr, size_t)
DRIVER(cuMemsetD8_v2, CUdeviceptr, unsigned char, size_t)
DRIVER(cuLaunchKernel, CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
       void**)
DRIVER(cuCtxSynchronize)
DRIVER(cuEventCreate, void**, unsigned)
DRIVER(cuEventRecord, void*, void*)
DRIVER(cuEventSynchronize, void*)
DRIVER(cuEventElapsedTime, float*, void*, void*)
DRIVER(cuGetErrorString, CUresult, const char**)

#define CK(call)                                                                         \
    do {                                                                                 \
        CUresult r = (call);                                                             \
        if (r) {                                                                         \
            const char* why = "?";                                                       \
            cuGetErrorString(r, &why);                                                   \
            fprintf(stderr, "%s:%d %s: %d %s\n", __FILE__, __LINE__, #call, r, why);     \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

// A kernel's arguments, each kept by value, as cuLaunchKernel takes them.
struct Args {
    std::vector<std::vector<char>> values;
    std::vector<void*> pointers;
    template <class T> Args& a(T v) {
        std::vector<char> b(sizeof(T));
        memcpy(b.data(), &v, sizeof(T));
        values.push_back(b);
        return *this;
    }
    void** get() {
        pointers.clear();
        for (auto& b : values) {
            pointers.push_back(b.data());
        }
        return pointers.data();
    }
};

static void* before;
static void* after;

static void launch(CUfunction f, unsigned blocks, unsigned threads, Args& args) {
    CK(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, nullptr, args.get(), nullptr));
}

// The best of `reps` event-timed runs of `body` after 3 untimed ones (reps 0: one untimed run), in microseconds.
template <class Body> static float best(int reps, Body body) {
    float us = 1e30f;
    for (int r = reps ? -3 : 0; r < std::max(reps, 1); r++) {
        CK(cuEventRecord(before, nullptr));
        body();
        CK(cuEventRecord(after, nullptr));
        CK(cuEventSynchronize(after));
        float ms;
        CK(cuEventElapsedTime(&ms, before, after));
        us = r >= 0 && reps ? std::min(us, ms * 1000.0f) : us;
    }
    return us;
}

static std::string readFile(const char* path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// The level block CudaLevelCodec.levelBlock uploads: the levels, then for searched levels LevelSearch's tables
// (inverse gaps, and each of `cells` cells' below and above indices).
static std::vector<char> levelBlock(const std::vector<double>& levels, bool search, int cells) {
    int count = (int) levels.size();
    int top = count - 1;
    std::vector<char> block(8 * count + (search ? 8 * top + 8 * cells : 0));
    memcpy(block.data(), levels.data(), 8 * count);
    if (!search) {
        return block;
    }
    std::vector<double> inverseGap(top);
    std::vector<int> below(cells), above(cells);
    for (int j = 0; j < top; j++) {
        inverseGap[j] = 1.0 / (levels[j + 1] - levels[j]);
    }
    int lo = 0, hi = 0;
    for (int c = 0; c < cells; c++) {
        double left = -1.0 + 2.0 * c / cells, right = -1.0 + 2.0 * (c + 1) / cells;
        while (lo < top && levels[lo + 1] <= left) lo++;
        while (hi < top && levels[hi] < right) hi++;
        below[c] = lo;
        above[c] = std::max(hi, lo);
    }
    memcpy(block.data() + 8 * count, inverseGap.data(), 8 * top);
    memcpy(block.data() + 8 * (2 * count - 1), below.data(), 4 * cells);
    memcpy(block.data() + 8 * (2 * count - 1) + 4 * cells, above.data(), 4 * cells);
    return block;
}

// Uniform levels in [-1, 1] (qsgd, qinf), or NUQ's exponential ones (±2^-j and 0) for searched levels.
static std::vector<double> levelsOf(int bits, bool search) {
    std::vector<double> levels;
    if (!search) {
        int top = (1 << bits) - 1;
        for (int j = 0; j <= top; j++) levels.push_back(-1.0 + 2.0 * j / top);
        return levels;
    }
    int half = (1 << (bits - 1)) - 1;
    for (int j = half - 1; j >= 0; j--) levels.push_back(-ldexp(1.0, -j));
    levels.push_back(0.0);
    for (int j = 0; j < half; j++) levels.push_back(ldexp(1.0, -(half - 1 - j)));
    return levels;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: level-ab OLD.ptx NEW.ptx [REPS]\n");
        return 2;
    }
    void* driver = dlopen("libcuda.so.1", RTLD_NOW);
    if (!driver) {
        fprintf(stderr, "level-ab: no libcuda.so.1 (no NVIDIA driver here)\n");
        return 1;
    }
#define LOAD(name) \
    if (!(name = (name##_t) dlsym(driver, #name))) { fprintf(stderr, "level-ab: no %s\n", #name); return 1; }
    LOAD(cuInit) LOAD(cuDeviceGet) LOAD(cuDevicePrimaryCtxRetain) LOAD(cuCtxSetCurrent) LOAD(cuModuleLoadData)
    LOAD(cuModuleGetFunction) LOAD(cuMemAlloc_v2) LOAD(cuMemcpyHtoD_v2) LOAD(cuMemcpyDtoH_v2) LOAD(cuMemcpyDtoD_v2)
    LOAD(cuMemsetD8_v2) LOAD(cuLaunchKernel) LOAD(cuCtxSynchronize) LOAD(cuEventCreate) LOAD(cuEventRecord)
    LOAD(cuEventSynchronize) LOAD(cuEventElapsedTime) LOAD(cuGetErrorString)
    int reps = argc > 3 ? atoi(argv[3]) : 20;
    int device;
    void* context;
    CK(cuInit(0));
    CK(cuDeviceGet(&device, 0));
    CK(cuDevicePrimaryCtxRetain(&context, device));
    CK(cuCtxSetCurrent(context));
    CK(cuEventCreate(&before, 0));
    CK(cuEventCreate(&after, 0));
    void* modules[2];
    for (int m = 0; m < 2; m++) {
        std::string ptx = readFile(argv[1 + m]);
        CK(cuModuleLoadData(&modules[m], ptx.c_str()));
    }

    // 11 M normal values of sd 1e-3, network-wide buckets of 8192 (resnet18's size, as bench compressors)
    const long long n = 11000000;
    const int bucket = 8192, cells = 2048;
    std::vector<float> g(n);
    unsigned long long state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 11;
    };
    for (long long i = 0; i < n; i++) {
        double u1 = (next() + 1) * (1.0 / 9007199254740993.0), u2 = next() * (1.0 / 9007199254740992.0);
        g[i] = (float) (1e-3 * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
    }
    int buckets = (int) ((n + bucket - 1) / bucket);
    std::vector<int> starts(buckets + 1);
    for (int k = 0; k <= buckets; k++) {
        starts[k] = (int) std::min<long long>(n, (long long) k * bucket);
    }
    CUdeviceptr gradient, startsOnDevice, bounds, payload, mean, saved, levelsOnDevice;
    CK(cuMemAlloc_v2(&gradient, 4 * n));
    CK(cuMemcpyHtoD_v2(gradient, g.data(), 4 * n));
    CK(cuMemAlloc_v2(&startsOnDevice, 4 * (buckets + 1)));
    CK(cuMemcpyHtoD_v2(startsOnDevice, starts.data(), 4 * (buckets + 1)));
    CK(cuMemAlloc_v2(&bounds, 4 * buckets));
    CK(cuMemAlloc_v2(&payload, 4 * buckets + n + 64));
    CK(cuMemAlloc_v2(&mean, 4 * n));
    CK(cuMemAlloc_v2(&saved, 4 * n));
    CK(cuMemAlloc_v2(&levelsOnDevice, 1 << 20));
    float copy = best(reps, [&] { CK(cuMemcpyDtoD_v2(saved, gradient, 4 * n)); });
    printf("copy of %lld floats: %.1f us (%.0f GB/s of floats)\n", n, copy, 4.0 * n / copy / 1e3);
    printf("%-28s %10s %10s %7s %s\n", "kernel", "old us", "new us", "new/old", "bytes");

    struct Case { const char* name; int bits; bool search; int linf; };
    const Case cases[] = {{"qsgd b4", 4, false, 0}, {"qsgd b2", 2, false, 0}, {"qsgd b3", 3, false, 0},
                          {"qsgd b8", 8, false, 0}, {"qinf b4", 4, false, 1}, {"nuq b4", 4, true, 0},
                          {"nuq b3", 3, true, 0}};
    const unsigned long long key = 0x9E3779B97F4A7C15ULL ^ 77;
    const long long first = 123457;
    const unsigned decodeBlocks = (unsigned) std::min<long long>(65535, (n + 4095) / 4096);
    bool same = true;
    for (const Case& c : cases) {
        std::vector<double> levels = levelsOf(c.bits, c.search);
        int count = (int) levels.size(), top = count - 1;
        std::vector<char> block = levelBlock(levels, c.search, cells);
        CK(cuMemcpyHtoD_v2(levelsOnDevice, block.data(), block.size()));
        size_t payloadBytes = 4 * buckets + 4 * (((long long) c.bits * n + 31) / 32);
        std::vector<unsigned char> payloads[2];
        std::vector<float> alone[2], second[2];
        float encode[2], decode[2], decodeSecond[2];
        for (int m = 0; m < 2; m++) {
            CUfunction encoder, decoder;
            const char* encoderName = c.search ? "gr_level_search_fused" : "gr_level_uniform_fused";
            CK(cuModuleGetFunction(&encoder, modules[m], encoderName));
            CK(cuModuleGetFunction(&decoder, modules[m], "gr_level_decode_mean"));
            // CudaLevelCodec.encode's arguments of the fused kernels, and decodeIntoMean's
            Args e;
            e.a(gradient).a(n).a(startsOnDevice).a(buckets).a(c.linf).a(0.0f).a(bounds).a(payload).a(c.bits);
            if (c.search) {
                CUdeviceptr tables = levelsOnDevice + 8 * (2 * count - 1);
                e.a(levelsOnDevice).a(top).a(levelsOnDevice + 8 * count).a(tables).a(tables + 4 * cells).a(cells);
            } else {
                e.a(top);
            }
            e.a(key).a(first).a(payload + 4 * buckets);
            CK(cuMemsetD8_v2(payload, 0xAB, payloadBytes));
            encode[m] = best(reps, [&] { launch(encoder, std::min(buckets, 65535), 128, e); });
            payloads[m].resize(payloadBytes);
            CK(cuMemcpyDtoH_v2(payloads[m].data(), payload, payloadBytes));
            Args worker0, worker1;
            worker0.a(payload).a(n).a(startsOnDevice).a(buckets).a(c.bits).a(levelsOnDevice).a(count).a(0).a(1)
                    .a(1.0f).a(mean);
            worker1.a(payload).a(n).a(startsOnDevice).a(buckets).a(c.bits).a(levelsOnDevice).a(count).a(1).a(2)
                    .a(0.5f).a(mean);
            decode[m] = best(reps, [&] { launch(decoder, decodeBlocks, 256, worker0); });
            alone[m].resize(n);
            CK(cuMemcpyDtoH_v2(alone[m].data(), mean, 4 * n));
            // the second of two workers on the first's mean: read, add, scale (compared once, then timed)
            CK(cuMemcpyDtoD_v2(saved, mean, 4 * n));
            launch(decoder, decodeBlocks, 256, worker1);
            CK(cuCtxSynchronize());
            second[m].resize(n);
            CK(cuMemcpyDtoH_v2(second[m].data(), mean, 4 * n));
            decodeSecond[m] = best(reps, [&] { launch(decoder, decodeBlocks, 256, worker1); });
            CK(cuMemcpyDtoD_v2(mean, saved, 4 * n));
        }
        bool samePayload = payloads[0] == payloads[1];
        bool sameMeans = memcmp(alone[0].data(), alone[1].data(), 4 * n) == 0
                && memcmp(second[0].data(), second[1].data(), 4 * n) == 0;
        same = same && samePayload && sameMeans;
        std::string name = c.name;
        printf("%-28s %10.1f %10.1f %7.3f %s\n", (name + " encode").c_str(), encode[0], encode[1],
               encode[1] / encode[0], samePayload ? "payload same" : "PAYLOAD DIFFERS");
        printf("%-28s %10.1f %10.1f %7.3f %s\n", (name + " decode w0").c_str(), decode[0], decode[1],
               decode[1] / decode[0], sameMeans ? "means same" : "MEANS DIFFER");
        printf("%-28s %10.1f %10.1f %7.3f\n", (name + " decode w1/2").c_str(), decodeSecond[0], decodeSecond[1],
               decodeSecond[1] / decodeSecond[0]);
        for (int m = 0; m < 2; m++) {
            double us = encode[m] + decode[m];
            printf("  %s encode+decode(w0): %.1f us = %.1f GB/s = %.3f x copy\n", m ? "new" : "old", us,
                   4.0 * n / us / 1e3, copy / us);
        }
        if (reps == 0) {
            break;
        }
    }
    printf("%s\n", same ? "ALL OUTPUTS BYTE-EQUAL" : "OUTPUTS DIFFER");
    return same ? 0 : 3;
}
