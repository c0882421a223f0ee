package org.gridrun.engine.compress;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.Settings;

/**
 * The registry of compression methods by short name: the built-ins and every plugin on the class path.
 *
 * <p>Providers are found with {@link ServiceLoader}; the built-ins register themselves the same way, in
 * {@code META-INF/services/org.gridrun.engine.compress.CompressorProvider}.
 */
public final class Compressors {
    private Compressors() {
    }

    /** The providers on the class path, found once: validating 100,000 configs must not scan it 100,000 times. */
    private static final List<CompressorProvider> PROVIDERS = load();

    private static List<CompressorProvider> load() {
        List<CompressorProvider> found = new ArrayList<>();
        ServiceLoader.load(CompressorProvider.class, Compressors.class.getClassLoader()).forEach(found::add);
        found.sort(Comparator.comparing(CompressorProvider::name));
        return List.copyOf(found);
    }

    /** Every registered provider, by name. */
    public static List<CompressorProvider> providers() {
        return PROVIDERS;
    }

    /** The registered short names, sorted. */
    public static List<String> names() {
        return providers().stream().map(CompressorProvider::name).toList();
    }

    /** The provider called {@code name}; an unknown name fails listing the known ones. */
    public static CompressorProvider provider(String name) {
        for (CompressorProvider provider : providers()) {
            if (provider.name().equals(name)) {
                return provider;
            }
        }
        throw new ConfigException("unknown compressor '" + name + "'; known: " + String.join(", ", names()));
    }

    /**
     * Method {@code name} with its default parameters where, so configured, it plans its encodes on a device
     * ({@link DeviceEncodable}) as the trainer runs it, with a sampler to lend its level fits gradients (ALQ and AMQ
     * fit before their first step); else empty, also for a method whose parameters have no defaults.
     */
    public static Optional<DeviceEncodable> onDevice(String name) {
        try {
            Compressor c = create(name, Map.of(), 0);
            c.bindSampler((draw, out) -> {
                for (int i = 0; i < out.length; i++) {
                    out[i] = (float) Math.sin(0.7 * i + draw);
                }
            });
            if (c instanceof DeviceEncodable encodable && encodable.planDeviceEncode(4096).isPresent()) {
                return Optional.of(encodable);
            }
        } catch (RuntimeException e) {
            // a parameter without a default: nothing to plan
        }
        return Optional.empty();
    }

    /**
     * Whether method {@code name} with its default parameters runs its whole step of several all-reduce rounds on a
     * device whose backend offers it ({@link PowerSgd#deviceShapes}); false for a method whose parameters have no
     * defaults.
     */
    public static boolean stepsOnDevice(String name) {
        try {
            return create(name, Map.of(), 0) instanceof PowerSgd;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * A prototype of method {@code name} with {@code params} (missing ones take their defaults) on stream 0 of
     * {@code seed}.
     *
     * <p>{@code error_feedback: true} wraps any method in {@link ErrorFeedback}, except a
     * {@link CollectiveCompressor}, which keeps its own residual if it has one, and a method whose provider already
     * wrapped it (one that always carries error feedback, such as {@code acsgd}). An unknown method, an unknown
     * parameter, a value of the wrong type or out of range fails with a
     * {@link ConfigException} naming it.
     */
    public static Compressor create(String name, Map<String, ?> params, long seed) {
        CompressorProvider provider = provider(name);
        Map<String, Object> own = new java.util.LinkedHashMap<>(params);
        Object feedback = own.remove(ErrorFeedback.PARAMETER);
        if (feedback != null && !(feedback instanceof Boolean) && !"".equals(feedback)) {
            throw new ConfigException(ErrorFeedback.PARAMETER + " must be true or false, found " + feedback);
        }
        Settings settings = Settings.resolve(provider.parameters(), own, name + " parameter");
        Compressor compressor = provider.create(settings, seed);
        boolean wrap = (Boolean.TRUE.equals(feedback) || "".equals(feedback))
                && !(compressor instanceof CollectiveCompressor) && !(compressor instanceof ErrorFeedback);
        return wrap ? new ErrorFeedback(compressor) : compressor;
    }
}
