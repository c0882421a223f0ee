// The native methods of org.gridrun.engine.backend.cuda.EmulatedGpu. Every emulator error becomes an
// IllegalStateException with its message; the Java side checks array bounds before it calls.
#include <jni.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "emu_runtime.h"

namespace {

gr_emu::Device& device(jlong handle) {
    return *reinterpret_cast<gr_emu::Device*>(handle);
}

// Runs `body`, turning an emulator error into a pending IllegalStateException.
template <class Body>
void guarded(JNIEnv* env, Body body) {
    try {
        body();
    } catch (const std::exception& e) {
        env->ThrowNew(env->FindClass("java/lang/IllegalStateException"), e.what());
    }
}

}  // namespace

#define GR_JNI(type, name) extern "C" JNIEXPORT type JNICALL Java_org_gridrun_engine_backend_cuda_EmulatedGpu_##name

GR_JNI(jlong, nOpen)(JNIEnv*, jclass) {
    return reinterpret_cast<jlong>(new gr_emu::Device());
}

GR_JNI(void, nClose)(JNIEnv*, jclass, jlong handle) {
    gr_emu::release_all(device(handle));
    delete &device(handle);
}

GR_JNI(jlong, nHostMemory)(JNIEnv*, jclass) {
    return (jlong) gr_emu::host_memory();
}

GR_JNI(jlong, nAllocate)(JNIEnv*, jclass, jlong handle, jlong bytes) {
    return (jlong) gr_emu::allocate(device(handle), (uint64_t) bytes);
}

GR_JNI(void, nFree)(JNIEnv* env, jclass, jlong handle, jlong address) {
    guarded(env, [&] { gr_emu::release(device(handle), (uint64_t) address); });
}

GR_JNI(void, nUpload)(JNIEnv* env, jclass, jlong handle, jfloatArray src, jint offset, jlong dst, jint count) {
    guarded(env, [&] {
        char* to = gr_emu::at(device(handle), (uint64_t) dst, 4 * (uint64_t) count, "upload");
        env->GetFloatArrayRegion(src, offset, count, reinterpret_cast<jfloat*>(to));
    });
}

GR_JNI(void, nDownload)(JNIEnv* env, jclass, jlong handle, jlong src, jfloatArray dst, jint offset, jint count) {
    guarded(env, [&] {
        char* from = gr_emu::at(device(handle), (uint64_t) src, 4 * (uint64_t) count, "download");
        env->SetFloatArrayRegion(dst, offset, count, reinterpret_cast<jfloat*>(from));
    });
}

GR_JNI(void, nUploadBytes)(JNIEnv* env, jclass, jlong handle, jbyteArray src, jlong dst, jint count) {
    guarded(env, [&] {
        char* to = gr_emu::at(device(handle), (uint64_t) dst, (uint64_t) count, "upload");
        env->GetByteArrayRegion(src, 0, count, reinterpret_cast<jbyte*>(to));
    });
}

GR_JNI(void, nDownloadBytes)(JNIEnv* env, jclass, jlong handle, jlong src, jbyteArray dst, jint count) {
    guarded(env, [&] {
        char* from = gr_emu::at(device(handle), (uint64_t) src, (uint64_t) count, "download");
        env->SetByteArrayRegion(dst, 0, count, reinterpret_cast<jbyte*>(from));
    });
}

GR_JNI(void, nCopy)(JNIEnv* env, jclass, jlong handle, jlong src, jlong dst, jlong bytes) {
    guarded(env, [&] {
        char* from = gr_emu::at(device(handle), (uint64_t) src, (uint64_t) bytes, "copy from");
        char* to = gr_emu::at(device(handle), (uint64_t) dst, (uint64_t) bytes, "copy to");
        if (from < to + bytes && to < from + bytes) {
            throw gr_emu::Error("copy between overlapping ranges");
        }
        std::memcpy(to, from, (size_t) bytes);
    });
}

GR_JNI(void, nFill32)(JNIEnv* env, jclass, jlong handle, jlong dst, jint value, jlong count) {
    guarded(env, [&] {
        if (dst & 3) {
            throw gr_emu::Error("fill32 of an address not aligned to 4 bytes");
        }
        auto* to = reinterpret_cast<jint*>(gr_emu::at(device(handle), (uint64_t) dst, 4 * (uint64_t) count, "fill32"));
        std::fill(to, to + count, value);
    });
}

GR_JNI(jint, nKernel)(JNIEnv* env, jclass, jstring name) {
    const char* chars = env->GetStringUTFChars(name, nullptr);
    int kernel = gr_emu::find_kernel(chars);
    env->ReleaseStringUTFChars(name, chars);
    return kernel;
}

GR_JNI(void, nLaunch)(JNIEnv* env, jclass, jlong handle, jint kernel, jintArray dims, jint count, jintArray kinds,
                      jlongArray slots) {
    guarded(env, [&] {
        jint d[6];
        env->GetIntArrayRegion(dims, 0, 6, d);
        unsigned grid[3] = {(unsigned) d[0], (unsigned) d[1], (unsigned) d[2]};
        unsigned block[3] = {(unsigned) d[3], (unsigned) d[4], (unsigned) d[5]};
        std::vector<jint> k(count);
        std::vector<jlong> s(count);
        env->GetIntArrayRegion(kinds, 0, count, k.data());
        env->GetLongArrayRegion(slots, 0, count, s.data());
        gr_emu::launch(device(handle), kernel, grid, block, count, k.data(), reinterpret_cast<uint64_t*>(s.data()));
    });
}
