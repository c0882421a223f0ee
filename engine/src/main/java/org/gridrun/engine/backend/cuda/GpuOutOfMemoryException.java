package org.gridrun.engine.backend.cuda;

/** The device had no room for an allocation; the message says how many bytes were asked for and how many are free. */
public final class GpuOutOfMemoryException extends RuntimeException {
    private final long requested;

    public GpuOutOfMemoryException(long requested, String message) {
        super(message);
        this.requested = requested;
    }

    /** The bytes the failed allocation asked for. */
    public long requested() {
        return requested;
    }
}
