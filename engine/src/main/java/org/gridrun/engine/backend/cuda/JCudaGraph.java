package org.gridrun.engine.backend.cuda;

import static jcuda.driver.JCudaDriver.cuGraphAddKernelNode;
import static jcuda.driver.JCudaDriver.cuGraphAddMemcpyNode;
import static jcuda.driver.JCudaDriver.cuGraphAddMemsetNode;
import static jcuda.driver.JCudaDriver.cuGraphCreate;
import static jcuda.driver.JCudaDriver.cuGraphDestroy;
import static jcuda.driver.JCudaDriver.cuGraphExecDestroy;
import static jcuda.driver.JCudaDriver.cuGraphExecKernelNodeSetParams;
import static jcuda.driver.JCudaDriver.cuGraphInstantiate;
import static jcuda.driver.JCudaDriver.cuGraphLaunch;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jcuda.Pointer;
import jcuda.driver.CUDA_KERNEL_NODE_PARAMS;
import jcuda.driver.CUDA_MEMCPY3D;
import jcuda.driver.CUDA_MEMSET_NODE_PARAMS;
import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUgraphNode;
import jcuda.driver.CUmemorytype;

/**
 * A CUDA graph built node by node through JCuda's driver API ({@code cuGraphAdd*Node}), each node depending on the
 * nodes it is given (the driver runs nodes that do not depend on each other on streams of its own), instantiated once
 * and launched on {@link JCudaGpu}'s stream. An upload node copies from a page-locked
 * host buffer of its own, which {@link #stage} fills; a kernel node's arguments change with
 * {@code cuGraphExecKernelNodeSetParams}, which copies them, as adding the node did.
 */
final class JCudaGraph implements DeviceGraph {
    private final JCudaGpu gpu;
    private final CUgraph graph = new CUgraph();
    private final List<CUgraphNode> nodes = new ArrayList<>();
    /** An upload node's page-locked source, its size and its device target. */
    private record HostUpload(Pointer host, long bytes, long target) {
    }

    /** The upload nodes by node index. */
    private final Map<Integer, HostUpload> uploads = new HashMap<>();
    private CUgraphExec exec;
    private boolean closed;

    JCudaGraph(JCudaGpu gpu) {
        this.gpu = gpu;
        cuGraphCreate(graph, 0);
    }

    /** The nodes the next one depends on: those of indices {@code after}, all added before it. */
    private CUgraphNode[] after(int[] after) {
        if (exec != null) {
            throw new IllegalStateException("the graph is instantiated; nothing can be appended");
        }
        CUgraphNode[] deps = new CUgraphNode[after.length];
        for (int i = 0; i < after.length; i++) {
            if (after[i] < 0 || after[i] >= nodes.size()) {
                throw new IllegalArgumentException("node " + nodes.size() + " cannot run after node " + after[i]);
            }
            deps[i] = nodes.get(after[i]);
        }
        return deps;
    }

    private CUDA_KERNEL_NODE_PARAMS kernelParams(String kernel, int[] dims, KernelArgs args) {
        CUDA_KERNEL_NODE_PARAMS p = new CUDA_KERNEL_NODE_PARAMS();
        p.func = gpu.function(kernel);
        p.gridDimX = dims[0];
        p.gridDimY = dims[1];
        p.gridDimZ = dims[2];
        p.blockDimX = dims[3];
        p.blockDimY = dims[4];
        p.blockDimZ = dims[5];
        p.sharedMemBytes = 0;
        p.kernelParams = JCudaGpu.parameters(args);
        p.extra = null;
        return p;
    }

    @Override
    public void kernel(String kernel, int[] dims, KernelArgs args, int[] after) {
        CUgraphNode[] deps = after(after);
        CUgraphNode node = new CUgraphNode();
        cuGraphAddKernelNode(node, graph, deps, deps.length, kernelParams(kernel, dims, args));
        nodes.add(node);
    }

    @Override
    public void upload(long dst, long bytes, int[] after) {
        CUgraphNode[] deps = after(after);
        Pointer host = new Pointer();
        cuMemAllocHost(host, Math.max(bytes, 1));
        uploads.put(nodes.size(), new HostUpload(host, bytes, dst));
        CUDA_MEMCPY3D copy = new CUDA_MEMCPY3D();
        copy.srcMemoryType = CUmemorytype.CU_MEMORYTYPE_HOST;
        copy.srcHost = host;
        addCopy(deps, copy, dst, bytes);
    }

    /** Adds {@code copy}, whose source is set, as a node writing {@code bytes} bytes to device address {@code dst}. */
    private void addCopy(CUgraphNode[] deps, CUDA_MEMCPY3D copy, long dst, long bytes) {
        copy.dstMemoryType = CUmemorytype.CU_MEMORYTYPE_DEVICE;
        copy.dstDevice = gpu.pointer(dst, bytes);
        copy.WidthInBytes = bytes;
        copy.Height = 1;
        copy.Depth = 1;
        CUgraphNode node = new CUgraphNode();
        cuGraphAddMemcpyNode(node, graph, deps, deps.length, copy, gpu.context());
        nodes.add(node);
    }

    @Override
    public void copy(long src, long dst, long bytes, int[] after) {
        CUgraphNode[] deps = after(after);
        CUDA_MEMCPY3D copy = new CUDA_MEMCPY3D();
        copy.srcMemoryType = CUmemorytype.CU_MEMORYTYPE_DEVICE;
        copy.srcDevice = gpu.pointer(src, bytes);
        addCopy(deps, copy, dst, bytes);
    }

    @Override
    public void fill32(long dst, int value, long count, int[] after) {
        CUgraphNode[] deps = after(after);
        CUDA_MEMSET_NODE_PARAMS fill = new CUDA_MEMSET_NODE_PARAMS();
        fill.dst = gpu.pointer(dst, 4 * count);
        fill.value = value;
        fill.elementSize = 4;
        fill.width = count;
        fill.height = 1;
        fill.pitch = 4 * count;
        CUgraphNode node = new CUgraphNode();
        cuGraphAddMemsetNode(node, graph, deps, deps.length, fill, gpu.context());
        nodes.add(node);
    }

    @Override
    public void instantiate() {
        CUgraphExec instance = new CUgraphExec();
        cuGraphInstantiate(instance, graph, 0);
        exec = instance;
    }

    @Override
    public void setArgs(int node, String kernel, int[] dims, KernelArgs args) {
        cuGraphExecKernelNodeSetParams(exec, nodes.get(node), kernelParams(kernel, dims, args));
    }

    @Override
    public void stage(int node, float[] src, int offset, byte[] bytes, int count) {
        HostUpload upload = uploads.get(node);
        ByteBuffer buffer = upload.host().getByteBuffer(0, upload.bytes()).order(ByteOrder.nativeOrder());
        if (src != null) {
            buffer.asFloatBuffer().put(src, offset, count);
        } else {
            buffer.put(bytes, 0, count);
        }
    }

    @Override
    public void uploadNow(int node) {
        HostUpload upload = uploads.get(node);
        cuMemcpyHtoDAsync(gpu.pointer(upload.target(), upload.bytes()), upload.host(), upload.bytes(), gpu.stream());
        gpu.queued("upload of " + upload.bytes() + " bytes");
    }

    @Override
    public void launch() {
        gpu.enter();
        cuGraphLaunch(exec, gpu.stream());
        gpu.queued("a step's graph of " + nodes.size() + " operations");
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        gpu.synchronize();
        if (exec != null) {
            cuGraphExecDestroy(exec);
        }
        cuGraphDestroy(graph);
        for (HostUpload upload : uploads.values()) {
            cuMemFreeHost(upload.host());
        }
        uploads.clear();
    }
}
