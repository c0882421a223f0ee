package org.gridrun.engine.backend;

import org.gridrun.engine.simd.Simd;

/** Provides the {@code cpu} backend, which is always available; its probe names the BLAS and the quantizers' path. */
public final class CpuBackendProvider implements BackendProvider {
    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public BackendProbe probe() {
        try {
            return new BackendProbe(name(), true, CpuBackend.blasName() + "; convolutions: "
                    + CpuBackend.convolutionPath() + "; quantizer kernels: " + Simd.describe());
        } catch (RuntimeException | LinkageError e) {
            return new BackendProbe(name(), false, "netlib BLAS failed to load: " + e);
        }
    }

    @Override
    public Backend create() {
        return new CpuBackend();
    }
}
