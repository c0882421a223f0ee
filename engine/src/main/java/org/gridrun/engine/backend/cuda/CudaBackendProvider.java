package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.BackendProbe;
import org.gridrun.engine.backend.BackendProvider;
import org.gridrun.engine.backend.GpuSlot;

/** Provides the {@code cuda} backend, preferred by {@code auto} whenever a usable GPU is present. */
public final class CudaBackendProvider implements BackendProvider {
    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public BackendProbe probe() {
        CudaProbe.Outcome o = CudaProbe.probe();
        return o.device() != null ? new BackendProbe(name(), true, o.device().describe() + (o.visible() > 1
                ? "; " + o.visible() + " GPUs visible, jobs at once spread over them (" + GpuSlot.VARIABLE + ")" : ""))
                : new BackendProbe(name(), false, o.reason());
    }

    /** Opens the GPU of this job's {@link GpuSlot} among the visible ones (GPU 0 without a slot). */
    @Override
    public Backend create() {
        return new CudaBackend(JCudaGpu.open(GpuSlot.ordinal(System.getenv(), Math.max(1, gpus()))));
    }

    @Override
    public int gpus() {
        return CudaProbe.probe().visible();
    }
}
