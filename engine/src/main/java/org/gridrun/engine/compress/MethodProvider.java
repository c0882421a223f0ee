package org.gridrun.engine.compress;

import java.util.List;
import org.gridrun.engine.config.ConfigKey;

/**
 * A {@link CompressorProvider} whose name, summary, aggregation and parameters are fixed values given to the
 * constructor, so a method's provider only says how to {@link #create} it. Plugins can extend it too.
 */
public abstract class MethodProvider implements CompressorProvider {
    private final String name;
    private final String summary;
    private final Aggregation aggregation;
    private final List<ConfigKey> parameters;

    /** A provider of method {@code name}, described by {@code summary}, with these parameters. */
    protected MethodProvider(String name, String summary, Aggregation aggregation, List<ConfigKey> parameters) {
        this.name = name;
        this.summary = summary;
        this.aggregation = aggregation;
        this.parameters = List.copyOf(parameters);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String summary() {
        return summary;
    }

    @Override
    public final Aggregation aggregation() {
        return aggregation;
    }

    @Override
    public final List<ConfigKey> parameters() {
        return parameters;
    }
}
