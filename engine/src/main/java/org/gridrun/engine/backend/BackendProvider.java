package org.gridrun.engine.backend;

/**
 * A plugin that makes one kind of backend, discovered through {@link java.util.ServiceLoader}.
 *
 * <p>Register an implementation in {@code META-INF/services/org.gridrun.engine.backend.BackendProvider}; it needs a
 * public no-argument constructor. Order of calls: {@link #name()} and {@link #priority()} any time;
 * {@link #probe()} before {@link #create()}, and {@code create()} only when the probe said available.
 */
public interface BackendProvider {
    /** The short name users select, e.g. {@code cpu} or {@code cuda}. */
    String name();

    /** How strongly {@code auto} prefers this backend when it is available; higher wins ({@code cpu} is 0). */
    int priority();

    /**
     * Finds out whether this backend can run here.
     *
     * <p>A probe never throws: a missing driver, library or device gives an unavailable result whose detail says
     * what is missing.
     */
    BackendProbe probe();

    /** A new backend; the caller closes it. */
    Backend create();

    /**
     * The GPUs that jobs on this backend spread over here ({@link GpuSlot}): 0 for a backend that runs on the host
     * or is not available.
     */
    default int gpus() {
        return 0;
    }
}
