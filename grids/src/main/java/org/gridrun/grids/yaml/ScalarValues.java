package org.gridrun.grids.yaml;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * Turns the parser's current scalar token into a {@link Scalar}: the typed value beside the text as written.
 *
 * <p>Integers become {@code Long} (an integer beyond its range is a problem), floats {@code Double} (including
 * YAML's {@code .inf} and {@code .nan}), booleans {@code Boolean}, null null, anything else its text.
 */
final class ScalarValues {
    private ScalarValues() {
    }

    static Scalar scalar(YAMLParser parser, JsonToken token, Mark mark, List<YamlProblem> problems)
            throws IOException {
        String text = parser.getText();
        Object value = switch (token) {
            case VALUE_NUMBER_INT -> integer(parser.getNumberValue(), text, mark, problems);
            case VALUE_NUMBER_FLOAT -> floating(text);
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> text;
        };
        return new Scalar(value, text, mark);
    }

    private static Object integer(Number number, String text, Mark mark, List<YamlProblem> problems) {
        if (number instanceof BigInteger big && big.bitLength() >= Long.SIZE) {
            problems.add(new YamlProblem(mark, "integer " + text + " is out of range; the largest is "
                    + Long.MAX_VALUE));
            return text;
        }
        return number.longValue();
    }

    private static Object floating(String text) {
        String plain = text.replace("_", "");
        String lower = plain.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".inf")) {
            return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (lower.equals(".nan")) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(plain);
        } catch (NumberFormatException e) {
            return text;
        }
    }
}
