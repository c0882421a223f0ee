package org.gridrun.engine.backend.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoHAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemsetD32Async;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;

/**
 * A real GPU through JCuda's driver API: the device's primary context, one stream, gridrun's PTX modules, and a
 * page-locked staging buffer through which every upload and download passes (one DMA transfer each way).
 *
 * <p>Device addresses are the raw 64-bit pointers the driver hands out; an address inside an allocation is turned
 * back into a driver pointer from the allocation that holds it. Kernel failures surface at the next synchronising
 * call, whose message names the kernels launched last.
 */
final class JCudaGpu implements Gpu {
    /** The PTX modules under this package's resources, one per source file in engine/src/main/cuda/. */
    static final List<String> MODULES = List.of("elementwise", "reduce", "norm", "gemm", "conv", "pool",
            "sequence", "recurrent", "quantize", "sparse", "cast", "sign", "lowrank", "smaq", "chains",
            "jointsq", "mcgq");

    private static final int RECENT = 8;

    private final CUdevice device;
    private final CUcontext context = new CUcontext();
    private final CUstream stream = new CUstream();
    private final String description;
    private final List<CUmodule> modules = new ArrayList<>();
    private final Map<String, CUfunction> functions = new HashMap<>();
    /** Each kernel's device time, when GRIDRUN_CUDA_PROFILE asks for it (printed at close), else null. */
    private final KernelProfile profile = KernelProfile.fromEnvironment(System.getenv(KernelProfile.VARIABLE));
    private CUevent profileStart;
    private CUevent profileStop;
    /** Every live allocation by its base address. */
    private final TreeMap<Long, Allocation> allocations = new TreeMap<>();
    private final Deque<String> recent = new ArrayDeque<>();
    private Pointer staging;
    private ByteBuffer stagingBytes;
    private long stagingSize;
    /** Whether an upload from the staging buffer may still be in flight. */
    private boolean stagingBusy;
    private Thread lastThread;
    private boolean closed;

    /** A device allocation that can say its raw address. */
    private static final class Allocation extends CUdeviceptr {
        long bytes;

        long address() {
            return getNativePointer();
        }
    }

    private JCudaGpu(CudaProbe.Device found) {
        this.device = found.device();
        this.description = found.describe();
        cuDevicePrimaryCtxRetain(context, device);
        cuCtxSetCurrent(context);
        lastThread = Thread.currentThread();
        cuStreamCreate(stream, 0);
        for (String name : MODULES) {
            byte[] ptx = ptx(name);
            if (ptx != null) {
                CUmodule module = new CUmodule();
                cuModuleLoadData(module, ptx);
                modules.add(module);
            }
        }
    }

    /**
     * Opens device {@code ordinal}.
     *
     * @throws IllegalStateException with the probe's reason when there is no usable device
     */
    static Gpu open(int ordinal) {
        CudaProbe.Device found = CudaProbe.device(ordinal);
        try {
            return new JCudaGpu(found);
        } catch (CudaException e) {
            throw new IllegalStateException("cannot open " + found.describe() + ": " + e.getMessage(), e);
        }
    }

    /** The PTX of module {@code name} as a NUL-terminated string, or null when this build has none. */
    private static byte[] ptx(String name) {
        try (InputStream in = JCudaGpu.class.getResourceAsStream(name + ".ptx")) {
            if (in == null) {
                return null;
            }
            byte[] text = in.readAllBytes();
            byte[] terminated = new byte[text.length + 1];
            System.arraycopy(text, 0, terminated, 0, text.length);
            return terminated;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kernels' " + name + ".ptx", e);
        }
    }

    @Override
    public String describe() {
        return description;
    }

    /** Makes the context current when another thread than the last one calls. */
    void enter() {
        if (closed) {
            throw new IllegalStateException("the GPU was closed");
        }
        Thread current = Thread.currentThread();
        if (current != lastThread) {
            cuCtxSetCurrent(context);
            lastThread = current;
        }
    }

    @Override
    public long allocate(long bytes) {
        enter();
        Allocation a = new Allocation();
        try {
            cuMemAlloc(a, bytes);
        } catch (CudaException e) {
            if (!e.getMessage().contains("CUDA_ERROR_OUT_OF_MEMORY")) {
                throw e;
            }
            long[] free = new long[1];
            long[] total = new long[1];
            cuMemGetInfo(free, total);
            throw new GpuOutOfMemoryException(bytes, String.format(Locale.ROOT,
                    "out of GPU memory: asked for %s with %s free of %s on %s", size(bytes), size(free[0]),
                    size(total[0]), description));
        }
        a.bytes = bytes;
        allocations.put(a.address(), a);
        return a.address();
    }

    /** A byte count for people: {@code 1.5 GiB}. */
    static String size(long bytes) {
        if (bytes < 1 << 20) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return bytes < 1L << 30 ? String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0)
                : String.format(Locale.ROOT, "%.2f GiB", bytes / 1073741824.0);
    }

    @Override
    public void free(long address) {
        enter();
        Allocation a = allocations.remove(address);
        if (a == null) {
            throw new IllegalArgumentException("no allocation at 0x" + Long.toHexString(address));
        }
        synchronize();
        cuMemFree(a);
    }

    /** The driver pointer of {@code address}, which must lie inside an allocation with {@code bytes} after it. */
    CUdeviceptr pointer(long address, long bytes) {
        Map.Entry<Long, Allocation> e = allocations.floorEntry(address);
        if (e == null || address + bytes > e.getKey() + e.getValue().bytes) {
            throw new IllegalArgumentException(bytes + " bytes at 0x" + Long.toHexString(address)
                    + " are not inside one allocation");
        }
        long offset = address - e.getKey();
        return offset == 0 ? e.getValue() : e.getValue().withByteOffset(offset);
    }

    /** The staging buffer, grown to {@code bytes}, once no upload from it is in flight. */
    private ByteBuffer staging(long bytes) {
        if (stagingBusy) {
            sync();
        }
        if (bytes > stagingSize) {
            if (staging != null) {
                cuMemFreeHost(staging);
            }
            staging = new Pointer();
            long size = Math.max(bytes, 1 << 20);
            cuMemAllocHost(staging, size);
            stagingSize = size;
            stagingBytes = staging.getByteBuffer(0, size).order(ByteOrder.nativeOrder());
        }
        return stagingBytes;
    }

    @Override
    public void upload(float[] src, int srcOffset, long dst, int count) {
        enter();
        long bytes = 4L * count;
        FloatBuffer floats = staging(bytes).asFloatBuffer();
        floats.put(src, srcOffset, count);
        cuMemcpyHtoDAsync(pointer(dst, bytes), staging, bytes, stream);
        stagingBusy = true;
    }

    @Override
    public void download(long src, float[] dst, int dstOffset, int count) {
        enter();
        long bytes = 4L * count;
        ByteBuffer buffer = staging(bytes);
        cuMemcpyDtoHAsync(staging, pointer(src, bytes), bytes, stream);
        sync();
        buffer.asFloatBuffer().get(dst, dstOffset, count);
    }

    @Override
    public void uploadBytes(byte[] src, long dst, int count) {
        enter();
        ByteBuffer buffer = staging(count);
        buffer.duplicate().put(src, 0, count);
        cuMemcpyHtoDAsync(pointer(dst, count), staging, count, stream);
        stagingBusy = true;
    }

    @Override
    public void downloadBytes(long src, byte[] dst, int count) {
        enter();
        ByteBuffer buffer = staging(count);
        cuMemcpyDtoHAsync(staging, pointer(src, count), count, stream);
        sync();
        buffer.duplicate().get(dst, 0, count);
    }

    @Override
    public void copy(long src, long dst, long bytes) {
        enter();
        cuMemcpyDtoDAsync(pointer(dst, bytes), pointer(src, bytes), bytes, stream);
    }

    @Override
    public void fill32(long dst, int value, long count) {
        enter();
        cuMemsetD32Async(pointer(dst, 4 * count), value, count, stream);
    }

    @Override
    public void launch(String kernel, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                      KernelArgs args) {
        enter();
        Pointer params = parameters(args);
        queued(kernel);
        try {
            CUfunction f = function(kernel);
            if (profile != null) {
                startTiming();
            }
            cuLaunchKernel(f, gridX, gridY, gridZ, blockX, blockY, blockZ, 0, stream, params, null);
            if (profile != null) {
                profile.add(kernel, stopTiming());
            }
        } catch (CudaException e) {
            throw new IllegalStateException("cannot launch " + kernel + " on a grid of " + gridX + "x" + gridY + "x"
                    + gridZ + " blocks of " + blockX + "x" + blockY + "x" + blockZ + " threads " + args + ": "
                    + e.getMessage(), e);
        }
    }

    private void startTiming() {
        if (profileStart == null) {
            profileStart = new CUevent();
            profileStop = new CUevent();
            cuEventCreate(profileStart, CUevent_flags.CU_EVENT_DEFAULT);
            cuEventCreate(profileStop, CUevent_flags.CU_EVENT_DEFAULT);
        }
        cuEventRecord(profileStart, stream);
    }

    /** The milliseconds since {@link #startTiming()} on the stream, waited for. */
    private double stopTiming() {
        cuEventRecord(profileStop, stream);
        cuEventSynchronize(profileStop);
        float[] milliseconds = new float[1];
        cuEventElapsedTime(milliseconds, profileStart, profileStop);
        return milliseconds[0];
    }

    /** The driver's kernel parameters of {@code args}: a pointer to one pointer per argument's value. */
    static Pointer parameters(KernelArgs args) {
        Pointer[] params = new Pointer[args.count()];
        for (int i = 0; i < params.length; i++) {
            long bits = args.bits(i);
            params[i] = switch (args.kind(i)) {
                case ADDRESS, LONG -> Pointer.to(new long[] {bits});
                case INT, FLOAT -> Pointer.to(new int[] {(int) bits});
            };
        }
        return Pointer.to(params);
    }

    @Override
    public DeviceGraph newGraph() {
        enter();
        return new JCudaGraph(this);
    }

    CUcontext context() {
        return context;
    }

    CUstream stream() {
        return stream;
    }

    /** Remembers that {@code what} was queued last, for the message of a failure found at the next wait. */
    void queued(String what) {
        recent.addLast(what);
        if (recent.size() > RECENT) {
            recent.removeFirst();
        }
    }

    CUfunction function(String kernel) {
        CUfunction f = functions.get(kernel);
        if (f != null) {
            return f;
        }
        for (CUmodule module : modules) {
            CUfunction candidate = new CUfunction();
            // Exceptions are on: a module without the kernel throws, so ask each with the error code instead.
            jcuda.driver.JCudaDriver.setExceptionsEnabled(false);
            int result;
            try {
                result = cuModuleGetFunction(candidate, module, kernel);
            } finally {
                jcuda.driver.JCudaDriver.setExceptionsEnabled(true);
            }
            if (result == CUresult.CUDA_SUCCESS) {
                functions.put(kernel, candidate);
                return candidate;
            }
        }
        throw new IllegalStateException("no kernel " + kernel + " in the PTX modules " + MODULES);
    }

    @Override
    public void synchronize() {
        enter();
        sync();
    }

    private void sync() {
        try {
            cuStreamSynchronize(stream);
            stagingBusy = false;
        } catch (CudaException e) {
            throw new IllegalStateException("the GPU failed (" + e.getMessage() + "); the kernels launched last: "
                    + recent, e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        enter();
        try {
            sync();
        } finally {
            closed = true;
            if (profile != null && !profile.isEmpty()) {
                System.err.print(profile.table(description));
            }
            if (profileStart != null) {
                cuEventDestroy(profileStart);
                cuEventDestroy(profileStop);
            }
            for (Allocation a : allocations.values()) {
                cuMemFree(a);
            }
            allocations.clear();
            if (staging != null) {
                cuMemFreeHost(staging);
            }
            for (CUmodule module : modules) {
                cuModuleUnload(module);
            }
            cuStreamDestroy(stream);
            cuDevicePrimaryCtxRelease(device);
        }
    }
}
