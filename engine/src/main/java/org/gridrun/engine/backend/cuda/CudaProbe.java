package org.gridrun.engine.backend.cuda;

import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import jcuda.driver.CUdevice;
import jcuda.driver.JCudaDriver;

/**
 * Finds out whether a CUDA GPU can run gridrun's kernels here: JCuda's driver library loads (it needs only
 * {@code libcuda.so.1}, the NVIDIA driver's library), the driver is CUDA 12.0 or newer (it reads the kernels' PTX,
 * ISA 8.0), and a device of compute capability 7.5 or higher (what the PTX targets) exists.
 *
 * <p>{@link #probe()} never throws and is computed once per JVM: the driver does not appear or vanish while gridrun
 * runs, and configuration checks ask often.
 */
final class CudaProbe {
    /** The oldest driver that loads the kernels' PTX: CUDA 12.0, as {@code cuDriverGetVersion} reports it. */
    static final int MIN_DRIVER = 12_000;
    /** The compute capability the PTX targets: 7.5 (Turing). */
    static final int MIN_CAPABILITY = 75;

    /** A usable device and what the driver says of it. */
    record Device(CUdevice device, int ordinal, String name, long memory, int major, int minor, int driver) {
        /** E.g. {@code NVIDIA H100 80GB HBM3 (device 0), 79.1 GiB, compute 9.0, driver CUDA 13.0}. */
        String describe() {
            return String.format(Locale.ROOT, "%s (device %d), %s, compute %d.%d, driver CUDA %d.%d", name, ordinal,
                    JCudaGpu.size(memory), major, minor, driver / 1000, driver % 1000 / 10);
        }
    }

    /**
     * The outcome of looking: a device, or why there is none.
     *
     * @param visible the GPUs the driver shows this process ({@code CUDA_VISIBLE_DEVICES} or a batch system's
     *                allocation limits them), when {@code device} is usable; else 0
     */
    record Outcome(Device device, String reason, int visible) {
        Outcome(Device device, String reason) {
            this(device, reason, 0);
        }
    }

    private static volatile Outcome first;

    private CudaProbe() {
    }

    /** Device 0, or the reason there is no usable one; never throws. */
    static Outcome probe() {
        Outcome o = first;
        if (o == null) {
            o = look(0);
            first = o;
        }
        return o;
    }

    /**
     * Device {@code ordinal}.
     *
     * @throws IllegalStateException with the reason when it is not usable
     */
    static Device device(int ordinal) {
        Outcome o = ordinal == 0 ? probe() : look(ordinal);
        if (o.device() == null) {
            throw new IllegalStateException(o.reason());
        }
        return o.device();
    }

    private static Outcome look(int ordinal) {
        try {
            DriverLibrary.prepare();
            JCudaDriver.setExceptionsEnabled(true);
        } catch (LinkageError e) {
            return new Outcome(null, linkFailure(e));
        } catch (RuntimeException e) {
            return new Outcome(null, "JCuda failed to load: " + e.getMessage());
        }
        try {
            JCudaDriver.cuInit(0);
            int[] value = new int[1];
            JCudaDriver.cuDriverGetVersion(value);
            int driver = value[0];
            if (driver < MIN_DRIVER) {
                return new Outcome(null, String.format(Locale.ROOT, "the NVIDIA driver supports CUDA %d.%d; "
                        + "gridrun's kernels need a driver for CUDA 12.0 or newer", driver / 1000,
                        driver % 1000 / 10));
            }
            JCudaDriver.cuDeviceGetCount(value);
            int visible = value[0];
            if (visible <= ordinal) {
                return new Outcome(null, visible == 0 ? "the NVIDIA driver sees no GPU"
                        : "there is no GPU " + ordinal + " (the driver sees " + visible + ")");
            }
            CUdevice device = new CUdevice();
            JCudaDriver.cuDeviceGet(device, ordinal);
            byte[] name = new byte[256];
            JCudaDriver.cuDeviceGetName(name, name.length, device);
            long[] memory = new long[1];
            JCudaDriver.cuDeviceTotalMem(memory, device);
            JCudaDriver.cuDeviceGetAttribute(value, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
            int major = value[0];
            JCudaDriver.cuDeviceGetAttribute(value, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
            int minor = value[0];
            Device found = new Device(device, ordinal, cString(name), memory[0], major, minor, driver);
            if (major * 10 + minor < MIN_CAPABILITY) {
                return new Outcome(null, found.describe() + ": gridrun's kernels need compute capability 7.5 or "
                        + "higher");
            }
            return new Outcome(found, null, visible);
        } catch (RuntimeException | LinkageError e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            if (message.contains("CUDA_ERROR_NO_DEVICE")) {
                return new Outcome(null, "the NVIDIA driver sees no GPU");
            }
            return new Outcome(null, "the CUDA driver failed: " + message);
        }
    }

    /** Why JCuda's native library did not load, in words a user can act on. */
    private static String linkFailure(LinkageError e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("libcuda")) {
            return "no NVIDIA driver here (libcuda.so.1 not found)";
        }
        return "JCuda's driver library did not load: " + message;
    }

    private static String cString(byte[] bytes) {
        int n = 0;
        while (n < bytes.length && bytes[n] != 0) {
            n++;
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }
}
