package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The emulator's device graph: the appended operations, run one after another through the emulated GPU, in an order
 * their waits allow that departs from the appended one as far as it can: of the operations whose waits are done, the
 * one appended last runs first. So a step's lanes, which the appended order runs one after another, run in the
 * opposite order wherever nothing orders them, and a lane that reads or writes what another writes without waiting
 * for it computes other bits.
 *
 * <p>A launch, and an upload queued on its own, run after the call returns, at the GPU's next operation
 * ({@link EmulatedGpu#later}): an upload node copies its host buffer as it is then, and a kernel node runs with the
 * arguments it had at the launch. So staging the next step's data while a launched graph has not run yet changes what
 * it uploads, as on a GPU. It fails, as a CUDA graph would, when used before {@link #instantiate()} or appended to
 * after it.
 */
final class EmulatedGraph implements DeviceGraph {
    private final EmulatedGpu gpu;
    private final boolean refusesLaunches;
    private final List<Runnable> nodes = new ArrayList<>();
    private final List<byte[]> staged = new ArrayList<>();
    private final List<Long> targets = new ArrayList<>();
    private final List<int[]> after = new ArrayList<>();
    private boolean instantiated;
    private int launches;

    /** A graph on {@code gpu}; with {@code refusesLaunches} every launch fails, as a driver might refuse one. */
    EmulatedGraph(EmulatedGpu gpu, boolean refusesLaunches) {
        this.gpu = gpu;
        this.refusesLaunches = refusesLaunches;
    }

    private void append(Runnable node, byte[] host, long target, int[] waits) {
        if (instantiated) {
            throw new IllegalStateException("the graph is instantiated; nothing can be appended");
        }
        for (int w : waits) {
            if (w < 0 || w >= nodes.size()) {
                throw new IllegalArgumentException("node " + nodes.size() + " cannot run after node " + w);
            }
        }
        after.add(waits.clone());
        nodes.add(node);
        staged.add(host);
        targets.add(target);
    }

    @Override
    public void kernel(String kernel, int[] dims, KernelArgs args, int[] waits) {
        append(launcher(kernel, dims, args), null, 0, waits);
    }

    private Runnable launcher(String kernel, int[] dims, KernelArgs args) {
        return () -> gpu.launch(kernel, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], args);
    }

    @Override
    public void upload(long dst, long bytes, int[] waits) {
        int node = nodes.size();
        append(() -> uploadStaged(node), new byte[Math.toIntExact(bytes)], dst, waits);
    }

    @Override
    public void copy(long src, long dst, long bytes, int[] waits) {
        append(() -> gpu.copy(src, dst, bytes), null, 0, waits);
    }

    @Override
    public void fill32(long dst, int value, long count, int[] waits) {
        append(() -> gpu.fill32(dst, value, count), null, 0, waits);
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
        gpu.later(() -> uploadStaged(node));
    }

    /** Copies upload node {@code node}'s host buffer as it is now. */
    private void uploadStaged(int node) {
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
        List<Runnable> run = new ArrayList<>(nodes.size());
        for (int node : order()) {
            run.add(nodes.get(node));  // the kernels' arguments of this launch; later changes are for later ones
        }
        gpu.later(() -> run.forEach(Runnable::run));
    }

    /** The order the nodes run in: of those whose waits are done, the last appended first. */
    List<Integer> order() {
        int n = nodes.size();
        List<List<Integer>> waiters = new ArrayList<>();
        int[] pending = new int[n];
        for (int i = 0; i < n; i++) {
            waiters.add(new ArrayList<>());
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>(Collections.reverseOrder());
        for (int i = 0; i < n; i++) {
            pending[i] = after.get(i).length;
            for (int w : after.get(i)) {
                waiters.get(w).add(i);
            }
            if (pending[i] == 0) {
                ready.add(i);
            }
        }
        List<Integer> order = new ArrayList<>(n);
        while (!ready.isEmpty()) {
            int i = ready.poll();
            order.add(i);
            for (int j : waiters.get(i)) {
                if (--pending[j] == 0) {
                    ready.add(j);
                }
            }
        }
        return order;
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
        gpu.synchronize();  // as JCudaGraph does before it frees the host buffers a launch may still read
        nodes.clear();
        staged.clear();
        after.clear();
    }
}
