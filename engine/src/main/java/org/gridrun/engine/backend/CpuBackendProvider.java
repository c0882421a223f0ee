package org.gridrun.engine.backend;

/** Provides the {@code cpu} backend, which is always available. */
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
            return new BackendProbe(name(), true, CpuBackend.blasName());
        } catch (RuntimeException | LinkageError e) {
            return new BackendProbe(name(), false, "netlib BLAS failed to load: " + e);
        }
    }

    @Override
    public Backend create() {
        return new CpuBackend();
    }
}
