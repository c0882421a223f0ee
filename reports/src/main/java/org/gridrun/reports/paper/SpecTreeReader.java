package org.gridrun.reports.paper;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.BadFileException;

/**
 * Reads a spec file into a located {@link SpecNode} tree with Jackson's streaming YAML parser.
 *
 * <p>Malformed YAML, a repeated key and an alias ({@code *name}; a spec reuses series through {@code series_sets}
 * instead) are problems at their {@code line:col}. Instances are for one read; use {@link #read}.
 */
final class SpecTreeReader {
    private static final YAMLFactory FACTORY = new YAMLFactory();

    private final YAMLParser parser;
    private final SpecProblems problems;

    private SpecTreeReader(YAMLParser parser, SpecProblems problems) {
        this.parser = parser;
        this.problems = problems;
    }

    /** The root of {@code text}, or null when it is empty or malformed (then {@code problems} says why). */
    static SpecNode read(String text, SpecProblems problems) {
        try (YAMLParser parser = FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            return first == null ? null : new SpecTreeReader(parser, problems).value(first);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            problems.add(at == null ? 1 : at.getLineNr(), at == null ? 1 : at.getColumnNr(),
                    "malformed YAML: " + BadFileException.oneLine(e.getOriginalMessage()));
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private SpecNode value(JsonToken token) throws IOException {
        JsonLocation at = parser.currentTokenLocation();
        int line = at.getLineNr();
        int column = at.getColumnNr();
        if (parser.isCurrentAlias()) {
            problems.add(line, column, "aliases (*" + parser.getText() + ") are not supported in a spec; "
                    + "name a list of series under series_sets and refer to it by name");
            return new SpecNode.Scalar(line, column, null);
        }
        return switch (token) {
            case START_OBJECT -> mapping(line, column);
            case START_ARRAY -> sequence(line, column);
            case VALUE_NULL -> new SpecNode.Scalar(line, column, null);
            default -> new SpecNode.Scalar(line, column, parser.getText());
        };
    }

    private SpecNode mapping(int line, int column) throws IOException {
        Map<String, SpecNode> entries = new LinkedHashMap<>();
        Map<String, SpecNode.Scalar> keys = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            JsonLocation at = parser.currentTokenLocation();
            SpecNode.Scalar key = new SpecNode.Scalar(at.getLineNr(), at.getColumnNr(), parser.currentName());
            SpecNode value = value(parser.nextToken());
            if (entries.containsKey(key.text())) {
                problems.add(key.line(), key.column(), "key '" + key.text() + "' is repeated");
            }
            entries.put(key.text(), value);
            keys.put(key.text(), key);
        }
        return new SpecNode.MapNode(line, column, entries, keys);
    }

    private SpecNode sequence(int line, int column) throws IOException {
        List<SpecNode> items = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            items.add(value(t));
        }
        return new SpecNode.ListNode(line, column, items);
    }
}
