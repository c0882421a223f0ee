package org.gridrun.engine.config;

/**
 * A configuration value is missing, of the wrong type, out of range or unknown.
 *
 * <p>The message alone is what a user sees: it names the field, the rule and the value found, e.g.
 * {@code lr must be positive, found -0.1}, and suggests the fix where there is one.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
