package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.BackendProbe;
import org.gridrun.engine.backend.BackendProvider;

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
        return o.device() != null ? new BackendProbe(name(), true, o.device().describe())
                : new BackendProbe(name(), false, o.reason());
    }

    @Override
    public Backend create() {
        return new CudaBackend(JCudaGpu.open(0));
    }
}
