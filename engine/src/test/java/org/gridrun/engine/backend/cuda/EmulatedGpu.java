package org.gridrun.engine.backend.cuda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The host emulator of gridrun's kernels: the same sources compiled by g++ for the host
 * ({@code scripts/build-cuda-emu.sh}), each thread of a block run as a fiber on the calling thread, device memory as
 * host memory.
 *
 * <p>Operations run when called, so an error is thrown by the call that caused it: a kernel that deadlocks, writes
 * outside its allocations or gets the wrong arguments fails its {@link #launch} with an
 * {@link IllegalStateException} that says where. New memory is NaN (all bytes 0xFF), so that a kernel reading what
 * nothing wrote shows it.
 *
 * <p>Graph launches and uploads from a graph's host buffers are the exception ({@link #later}): as on a GPU, they run
 * after their call has returned, here at the next operation of this device, as late as a stream could run them. So a
 * host that writes a graph's host buffers before the graph has run changes what that launch uploads, as it would on
 * a GPU.
 *
 * <p>With {@code GRIDRUN_EMU_RACECHECK=1} in the environment, the emulator also checks every launch for data races
 * ({@code engine/src/test/cuda-emu/emu_race.cpp}): two threads touching the same byte, one of them writing, with no
 * barrier between them that a GPU would honour. The first race fails the launch, naming both threads and both places
 * in the source. The kernels then run several times slower, so the check is a separate run of chosen tests
 * (the engine's {@code racecheck} test execution).
 */
final class EmulatedGpu implements Gpu {
    /** Whether this JVM's emulator checks launches for races, as the environment asks. */
    static final boolean RACECHECK = "1".equals(System.getenv("GRIDRUN_EMU_RACECHECK"));
    private static final String LIBRARY = RACECHECK ? "libgridrun-cuda-emu-race.so" : "libgridrun-cuda-emu.so";
    private static final String SCRIPT = "scripts/build-cuda-emu.sh";
    private static boolean loaded;

    private long handle;
    private final Map<String, Integer> kernels = new HashMap<>();
    private final int[] dims = new int[6];
    private int[] kinds = new int[16];
    private long[] slots = new long[16];
    /** Work queued to run after its call returned, in order ({@link #later}). */
    private final ArrayDeque<Runnable> queued = new ArrayDeque<>();
    private boolean runningQueued;

    private EmulatedGpu(long handle) {
        this.handle = handle;
    }

    /**
     * A new emulated device, building the emulator library first when it is missing or its sources changed.
     *
     * @throws IllegalStateException with the reason when the library cannot be built here (no g++, no JDK headers)
     * @throws AssertionError when the kernels or the emulator do not compile: a failure, not a reason to skip
     */
    static synchronized Gpu open() {
        if (!loaded) {
            System.load(build().toString());
            KernelRegisters.prepare();  // ptxas runs now, not in the first launch (which a test may time)
            loaded = true;
        }
        return new EmulatedGpu(nOpen());
    }

    @Override
    public String describe() {
        return RACECHECK ? "host emulator (race check)" : "host emulator";
    }

    @Override
    public long allocate(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        if (allocated + bytes > capacity) {
            throw new GpuOutOfMemoryException(bytes, "cannot allocate " + bytes + " bytes with " + allocated
                    + " of the emulated device's " + capacity + " allocated");
        }
        long address = nAllocate(device(), bytes);
        if (address == 0) {
            throw new GpuOutOfMemoryException(bytes, "cannot allocate " + bytes + " bytes on the host emulator, "
                    + "whose host has " + nHostMemory() + " bytes of memory");
        }
        sizes.put(address, bytes);
        allocated += bytes;
        return address;
    }

    @Override
    public void free(long address) {
        nFree(device(), address);
        Long bytes = sizes.remove(address);
        allocated -= bytes == null ? 0 : bytes;
    }

    /** The most bytes allocations may hold at once, as a device's memory; for tests. */
    long capacity = Long.MAX_VALUE;
    private final Map<Long, Long> sizes = new HashMap<>();
    private long allocated;

    /** The bytes allocations hold now. */
    long allocated() {
        return allocated;
    }

    @Override
    public void upload(float[] src, int srcOffset, long dst, int count) {
        checkRange(src.length, srcOffset, count);
        nUpload(device(), src, srcOffset, dst, count);
    }

    @Override
    public void download(long src, float[] dst, int dstOffset, int count) {
        checkRange(dst.length, dstOffset, count);
        nDownload(device(), src, dst, dstOffset, count);
    }

    @Override
    public void uploadBytes(byte[] src, long dst, int count) {
        checkRange(src.length, 0, count);
        nUploadBytes(device(), src, dst, count);
    }

    @Override
    public void downloadBytes(long src, byte[] dst, int count) {
        checkRange(dst.length, 0, count);
        nDownloadBytes(device(), src, dst, count);
    }

    @Override
    public void copy(long src, long dst, long bytes) {
        nCopy(device(), src, dst, bytes);
    }

    @Override
    public void fill32(long dst, int value, long count) {
        nFill32(device(), dst, value, count);
    }

    @Override
    public void launch(String kernel, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                       KernelArgs args) {
        long device = device();
        Integer id = kernels.get(kernel);
        if (id == null) {
            id = nKernel(kernel);
            if (id < 0) {
                throw new IllegalStateException("no kernel " + kernel + " in the emulator (an extern \"C\" "
                        + "__global__ function of engine/src/main/cuda/*.cu)");
            }
            kernels.put(kernel, id);
        }
        KernelRegisters.check(kernel, (long) blockX * blockY * blockZ);
        int count = args.count();
        if (count > kinds.length) {
            kinds = new int[count];
            slots = new long[count];
        }
        for (int i = 0; i < count; i++) {
            kinds[i] = args.kind(i).ordinal();
            slots[i] = args.bits(i);
        }
        dims[0] = gridX;
        dims[1] = gridY;
        dims[2] = gridZ;
        dims[3] = blockX;
        dims[4] = blockY;
        dims[5] = blockZ;
        nLaunch(device, id, dims, count, kinds, slots);
    }

    /** Whether the graphs of this GPU fail to launch, as a driver might refuse one; for tests. */
    boolean refuseGraphLaunches;

    @Override
    public DeviceGraph newGraph() {
        device();
        return new EmulatedGraph(this, refuseGraphLaunches);
    }

    @Override
    public void synchronize() {
        device();  // runs what was queued; the other operations are done when they return
    }

    /**
     * Queues {@code work} (a graph's launch, an upload from its host buffer), which runs before the next operation of
     * this device, at the latest at {@link #synchronize()}, not now.
     */
    void later(Runnable work) {
        device();
        queued.add(work);
    }

    @Override
    public void close() {
        queued.clear();
        if (handle != 0) {
            nClose(handle);
            handle = 0;
        }
    }

    /** The device's handle, once the work queued before this operation has run. */
    private long device() {
        if (handle == 0) {
            throw new IllegalStateException("the emulated GPU is closed");
        }
        if (!runningQueued) {
            runningQueued = true;
            try {
                while (!queued.isEmpty()) {
                    queued.poll().run();
                }
            } finally {
                runningQueued = false;
            }
        }
        return handle;
    }

    private static void checkRange(int length, int offset, int count) {
        if (offset < 0 || count < 0 || (long) offset + count > length) {
            throw new IndexOutOfBoundsException(count + " values at " + offset + " of " + length);
        }
    }

    /** The library, built unless one built from the same sources is there. */
    private static Path build() {
        Path root = projectRoot();
        Path library = root.resolve("engine/target/cuda-emu").resolve(LIBRARY);
        Path stamp = library.resolveSibling(LIBRARY + ".sources");
        String fingerprint = fingerprint(root);
        try {
            if (Files.isRegularFile(library) && Files.isRegularFile(stamp)
                    && Files.readString(stamp).equals(fingerprint)) {
                return library;
            }
            runScript(root, library);
            Files.writeString(stamp, fingerprint);
            return library;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The project root: the working directory Maven gives tests (the engine module) or its parent. */
    private static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path candidate : new Path[] {dir, dir.getParent()}) {
            if (candidate != null && Files.isRegularFile(candidate.resolve(SCRIPT))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no " + SCRIPT + " in " + dir + " or its parent");
    }

    /** A digest of every source the library is built from, with their paths, so that any change rebuilds it. */
    private static String fingerprint(Path root) {
        List<Path> sources = new ArrayList<>(List.of(root.resolve(SCRIPT)));
        for (String dir : new String[] {"engine/src/main/cuda", "engine/src/test/cuda-emu"}) {
            try (Stream<Path> files = Files.walk(root.resolve(dir))) {
                files.filter(Files::isRegularFile).forEach(sources::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        sources.sort(null);  // Files.walk's order is the file system's
        return digest(root, sources) + "\n";
    }

    /** The SHA-256 of {@code files}, in order, each by its path from {@code root} and its bytes, in hex. */
    static String digest(Path root, List<Path> files) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Path file : files) {
                digest.update(root.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
                digest.update(Files.readAllBytes(file));
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void runScript(Path root, Path library) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve(SCRIPT).toString()));
        if (RACECHECK) {
            command.add("--racecheck");
        }
        command.add(library.toString());
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true);
        Path jdk = Path.of(System.getProperty("java.home"));
        if (System.getenv("JAVA_HOME") == null && Files.isRegularFile(jdk.resolve("include/jni.h"))) {
            builder.environment().put("JAVA_HOME", jdk.toString());  // the headers of the JVM that will load it
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status;
        try {
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(SCRIPT + " did not finish in 10 minutes");
            }
            status = process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the emulator", e);
        }
        List<String> lines = output.strip().lines().toList();
        String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        if (status == 2) {
            throw new IllegalStateException(tail);
        }
        if (status != 0) {
            throw new AssertionError(SCRIPT + " failed (exit " + status + "):\n" + tail);
        }
    }

    private static native long nOpen();

    private static native void nClose(long device);

    private static native long nHostMemory();

    private static native long nAllocate(long device, long bytes);

    private static native void nFree(long device, long address);

    private static native void nUpload(long device, float[] src, int offset, long dst, int count);

    private static native void nDownload(long device, long src, float[] dst, int offset, int count);

    private static native void nDownloadBytes(long device, long src, byte[] dst, int count);

    private static native void nUploadBytes(long device, byte[] src, long dst, int count);

    private static native void nCopy(long device, long src, long dst, long bytes);

    private static native void nFill32(long device, long dst, int value, long count);

    private static native int nKernel(String name);

    private static native void nLaunch(long device, int kernel, int[] dims, int count, int[] kinds, long[] slots);
}
