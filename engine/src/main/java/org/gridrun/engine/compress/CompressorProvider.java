package org.gridrun.engine.compress;

import java.util.List;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;

/**
 * A plugin that makes one compression method, discovered through {@link java.util.ServiceLoader}.
 *
 * <p>Register an implementation in {@code META-INF/services/org.gridrun.engine.compress.CompressorProvider}; it
 * needs a public no-argument constructor. Order of calls: {@link #name()}, {@link #summary()},
 * {@link #aggregation()} and {@link #parameters()} any time (a {@code list compressors} command prints them);
 * {@link #create} with settings resolved against {@code parameters()} (types already checked, defaults filled in),
 * and it checks ranges, failing with a {@link org.gridrun.engine.config.ConfigException} such as
 * {@code bits must be in [1, 8], found 0}.
 */
public interface CompressorProvider {
    /** The short name, e.g. {@code qsgd}. */
    String name();

    /** One line for users: what the method does. */
    String summary();

    /** How the method's payloads aggregate. */
    Aggregation aggregation();

    /** The method's parameters with types, defaults and help. */
    List<ConfigKey> parameters();

    /** A prototype compressor on random stream 0 of {@code seed}. */
    Compressor create(Settings params, long seed);
}
