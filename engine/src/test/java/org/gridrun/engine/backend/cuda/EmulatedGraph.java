package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * The emulator's device graph: the appended operations in order, run one after another through the emulated GPU
 * when launched. An upload node keeps its staged bytes; a kernel node its latest arguments. It fails, as a CUDA
 * graph would, when used before {@link #instantiate()} or appended to after it.
 */
final class EmulatedGraph implements DeviceGraph {
    private final Gpu gpu;
    private final boolean refusesLaunches;
    private final List<Runnable> nodes = new ArrayList<>();
    private final List<byte[]> staged = new ArrayList<>();
    private final List<Long> targets = new ArrayList<>();
    private boolean instantiated;
    private int launches;

    /** A graph on {@code gpu}; with {@code refusesLaunches} every launch fails, as a driver might refuse one. */
    EmulatedGraph(Gpu gpu, boolean refusesLaunches) {
        this.gpu = gpu;
        this.refusesLaunches = refusesLaunches;
    }

    private void append(Runnable node, byte[] host, long target) {
        if (instantiated) {
            throw new IllegalStateException("the graph is instantiated; nothing can be appended");
        }
        nodes.add(node);
        staged.add(host);
        targets.add(target);
    }

    @Override
    public void kernel(String kernel, int[] dims, KernelArgs args) {
        append(launcher(kernel, dims, args), null, 0);
    }

    private Runnable launcher(String kernel, int[] dims, KernelArgs args) {
        return () -> gpu.launch(kernel, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], args);
    }

    @Override
    public void upload(long dst, long bytes) {
        int node = nodes.size();
        append(() -> uploadNow(node), new byte[Math.toIntExact(bytes)], dst);
    }

    @Override
    public void copy(long src, long dst, long bytes) {
        append(() -> gpu.copy(src, dst, bytes), null, 0);
    }

    @Override
    public void fill32(long dst, int value, long count) {
        append(() -> gpu.fill32(dst, value, count), null, 0);
    }

    @Override
    public void instantiate() {
        instantiated = true;
    }

    @Override
    public void setArgs(int node, String kernel, int[] dims, KernelArgs args) {
        requireInstantiated();
        nodes.set(node, launcher(kernel, dims, args));
    }

    @Override
    public void stage(int node, float[] src, int offset, byte[] bytes, int count) {
        byte[] host = staged.get(node);
        if (src == null) {
            System.arraycopy(bytes, 0, host, 0, count);
            return;
        }
        for (int i = 0; i < count; i++) {
            int bits = Float.floatToRawIntBits(src[offset + i]);
            for (int b = 0; b < 4; b++) {
                host[4 * i + b] = (byte) (bits >>> (8 * b));
            }
        }
    }

    @Override
    public void uploadNow(int node) {
        byte[] host = staged.get(node);
        gpu.uploadBytes(host, targets.get(node), host.length);
    }

    @Override
    public void launch() {
        requireInstantiated();
        if (refusesLaunches) {
            throw new IllegalStateException("CUDA_ERROR_NOT_SUPPORTED (emulated)");
        }
        launches++;
        for (Runnable node : nodes) {
            node.run();
        }
    }

    /** How many times the graph was launched. */
    int launches() {
        return launches;
    }

    private void requireInstantiated() {
        if (!instantiated) {
            throw new IllegalStateException("the graph is not instantiated");
        }
    }

    @Override
    public void close() {
        nodes.clear();
        staged.clear();
    }
}
