package org.gridrun.grids.yaml;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns the parser's current scalar token into a {@link Scalar}: the typed value beside the text as written.
 *
 * <p>Integers become {@code Long} (an integer beyond its range is a problem), floats {@code Double} (including
 * YAML's {@code .inf} and {@code .nan}), booleans {@code Boolean}, null null, anything else its text. The parser
 * hands out a mapping key as text only; {@link #plainKey} types an unquoted key the same way.
 */
final class ScalarValues {
    /** Plain keys that can only be text: most keys are names, and typing them needs no parser. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Set<String> TYPED_WORDS = Set.of("y", "n", "yes", "no", "true", "false", "on", "off", "null");
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

    /** The value of an unquoted, untagged key written as {@code text}, typed as the same text as a value would be. */
    static Object plainKey(String text, YAMLFactory factory) {
        if (NAME.matcher(text).matches() && !TYPED_WORDS.contains(text.toLowerCase(Locale.ROOT))) {
            return text;
        }
        try (YAMLParser parser = factory.createParser(text)) {
            JsonToken token = parser.nextToken();
            if (token == null || !token.isScalarValue()) {
                return text;
            }
            Scalar scalar = scalar(parser, token, new Mark(1, 1), new ArrayList<>());
            return text.equals(scalar.text()) ? scalar.value() : text;
        } catch (IOException e) {
            return text;
        }
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
