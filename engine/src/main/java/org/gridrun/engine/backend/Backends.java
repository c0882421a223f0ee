package org.gridrun.engine.backend;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The registry of backends: every {@link BackendProvider} found on the class path, by short name, plus {@code auto}.
 *
 * <p>{@code auto} opens the available backend of highest priority; the backend's {@link Backend#name()} then
 * records which one ran. Probes never throw, so {@link #probe()} is safe for a {@code list backends} command.
 */
public final class Backends {
    /** The name that picks the best available backend. */
    public static final String AUTO = "auto";

    private Backends() {
    }

    /** Every registered provider, highest priority first. */
    public static List<BackendProvider> providers() {
        return PROVIDERS;
    }

    /** The providers on the class path, found once (configs are validated by the thousand). */
    private static final List<BackendProvider> PROVIDERS = load();

    private static List<BackendProvider> load() {
        List<BackendProvider> found = new ArrayList<>();
        ServiceLoader.load(BackendProvider.class, Backends.class.getClassLoader()).forEach(found::add);
        found.sort(Comparator.comparingInt(BackendProvider::priority).reversed()
                .thenComparing(BackendProvider::name));
        return List.copyOf(found);
    }

    /** The names a configuration may use: {@code auto} and every registered backend. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(AUTO);
        providers().forEach(p -> names.add(p.name()));
        return names;
    }

    /** The probe result of every registered backend, highest priority first. */
    public static List<BackendProbe> probe() {
        return providers().stream().map(Backends::safeProbe).collect(Collectors.toList());
    }

    /**
     * Opens the backend called {@code name}, or with {@code auto} the best available one.
     *
     * <p>An unknown name or an unavailable backend fails with a message that lists the choices or the reason.
     */
    public static Backend open(String name) {
        List<BackendProvider> providers = providers();
        for (BackendProvider provider : providers) {
            BackendProbe probe = safeProbe(provider);
            if (provider.name().equals(name) && !probe.available()) {
                throw new IllegalStateException("backend " + name + " is not available: " + probe.detail());
            }
            if (provider.name().equals(name) || AUTO.equals(name) && probe.available()) {
                return provider.create();
            }
        }
        throw new IllegalArgumentException(AUTO.equals(name) ? "no backend is available"
                : "backend must be one of " + names() + ", found '" + name + "'");
    }

    /**
     * The GPUs that a job on backend {@code name} (or {@code auto}) would train on here, spread over by its
     * {@link GpuSlot}: 0 when it would run on the host, or the name is unknown or unavailable. Never throws.
     */
    public static int gpus(String name) {
        for (BackendProvider provider : providers()) {
            BackendProbe probe = safeProbe(provider);
            if (provider.name().equals(name) || AUTO.equals(name) && probe.available()) {
                return probe.available() ? safeGpus(provider) : 0;
            }
        }
        return 0;
    }

    private static int safeGpus(BackendProvider provider) {
        try {
            return Math.max(0, provider.gpus());
        } catch (RuntimeException | LinkageError e) {
            return 0;
        }
    }

    private static BackendProbe safeProbe(BackendProvider provider) {
        try {
            return provider.probe();
        } catch (RuntimeException | LinkageError e) {
            return new BackendProbe(provider.name(), false, "probe failed: " + e);
        }
    }
}
