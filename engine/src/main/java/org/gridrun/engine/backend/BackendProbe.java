package org.gridrun.engine.backend;

/**
 * What a probe found out about one backend: whether it can run here, and either what it would run on or why not.
 *
 * @param name      the backend's short name
 * @param available whether {@link BackendProvider#create()} will succeed
 * @param detail    when available, what it runs on (e.g. the BLAS library); otherwise the reason, saying how to fix
 *                  it where possible
 */
public record BackendProbe(String name, boolean available, String detail) {
}
