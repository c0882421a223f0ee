package org.gridrun.analysis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridrun.engine.run.ConfigValues;

/**
 * Writes and reads the flat JSON objects the store keeps for params and configs, keeping key order and value types.
 *
 * <p>Values are the config types of {@link ConfigValues}: a string, a whole number ({@code Long}), a float
 * ({@code Double}, which Jackson always writes with a point or an exponent, so it reads back as one), a boolean, or
 * null. Non-finite floats are written as the bare tokens {@code NaN}, {@code Infinity} and {@code -Infinity}, which
 * this reader accepts.
 */
final class FlatJson {
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    private FlatJson() {
    }

    /** The JSON text of {@code map}. */
    static String write(Map<String, Object> map) {
        try {
            return JSON.writeValueAsString(map);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The value as the params table stores it: its plain text form, or null. */
    static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    /** Reads an object written by {@link #write(Map)}; integers come back as {@code Long}. */
    static Map<String, Object> read(String json) {
        Map<String, Object> raw;
        try {
            raw = JSON.readValue(json, MAP);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON in the store: " + e.getOriginalMessage(), e);
        }
        Map<String, Object> typed = new LinkedHashMap<>();
        raw.forEach((key, value) -> typed.put(key, ConfigValues.normalise(value)));
        return typed;
    }
}
