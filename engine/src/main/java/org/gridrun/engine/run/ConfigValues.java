package org.gridrun.engine.run;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The value types a resolved configuration may hold: {@code String}, {@code Long}, {@code Double} and
 * {@code Boolean}.
 */
public final class ConfigValues {
    private ConfigValues() {
    }

    /**
     * Maps what a YAML or JSON reader produced onto the four config types: integers of every width become
     * {@code Long}, floats and decimals {@code Double}, anything else its string form ({@code null} stays null).
     */
    public static Object normalise(Object value) {
        if (value == null || value instanceof String || value instanceof Long || value instanceof Double
                || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < 64 ? (Object) big.longValue() : big.toString();
        }
        if (value instanceof Float || value instanceof BigDecimal) {
            return ((Number) value).doubleValue();
        }
        return String.valueOf(value);
    }
}
