package org.gridrun.grids.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one YAML document into a located tree with Jackson's streaming {@link YAMLParser}.
 *
 * <p>Every node gets the mark where its content begins, after any anchor or tag. An anchor ({@code &name}) is
 * recorded when its node is complete; an alias ({@code *name}) is replaced by that node, so the tree shares it. A
 * repeated key in one mapping, an alias to an anchor not defined before it, and a second document are problems;
 * a key is typed like a value ({@code 3:} is the integer 3, {@code '3':} the string), so that a key can stand for a
 * value, as in the grid language's overrides;
 * malformed YAML is a single problem with the parser's own message. Merge keys are resolved last.
 *
 * <p>Instances are for one read; use {@link #read(String)}.
 */
public final class YamlTreeReader {
    private static final YAMLFactory FACTORY = new YAMLFactory();

    private final YAMLParser parser;
    private final NodeStart starts;
    private final Map<String, Node> anchors = new HashMap<>();
    private final List<YamlProblem> problems = new ArrayList<>();

    private YamlTreeReader(YAMLParser parser, String source) {
        this.parser = parser;
        this.starts = new NodeStart(source);
    }

    /** Reads the first document of {@code source}; never throws for bad input, which becomes problems instead. */
    public static YamlDocument read(String source) {
        try (YAMLParser parser = FACTORY.createParser(source)) {
            return new YamlTreeReader(parser, source).document();
        } catch (JsonProcessingException e) {
            return new YamlDocument(null, List.of(YamlSyntax.problem(e)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private YamlDocument document() throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null) {
            return new YamlDocument(null, problems);
        }
        Node root = value(token);
        if (parser.nextToken() != null) {
            problems.add(new YamlProblem(mark(), "a grid file holds one YAML document; remove this second one"));
        }
        return new YamlDocument(new MergeKeys(problems).resolve(root), problems);
    }

    private Node value(JsonToken token) throws IOException {
        NodeStart.Start start = starts.at(parser.currentTokenLocation());
        Mark mark = start.mark();
        if (parser.isCurrentAlias()) {
            return alias(parser.getText(), mark);
        }
        String anchor = start.anchor();
        Node node = switch (token) {
            case START_OBJECT -> mapping(mark);
            case START_ARRAY -> sequence(mark);
            default -> ScalarValues.scalar(parser, token, mark, problems);
        };
        if (anchor != null) {
            anchors.put(anchor, node);
        }
        return node;
    }

    private Node alias(String name, Mark mark) {
        Node target = anchors.get(name);
        if (target != null) {
            return target;
        }
        problems.add(new YamlProblem(mark, "alias '*" + name + "' names no anchor defined before it; define '&"
                + name + "' first"));
        return new Scalar(null, "*" + name, mark);
    }

    private Mapping mapping(Mark mark) throws IOException {
        List<Mapping.Entry> entries = new ArrayList<>();
        Map<String, Mark> seen = new HashMap<>();
        for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
            Scalar key = key(parser.currentName());
            Node value = value(parser.nextToken());
            Mark first = seen.putIfAbsent(key.text(), key.mark());
            if (first == null) {
                entries.add(new Mapping.Entry(key, value));
            } else {
                problems.add(new YamlProblem(key.mark(), "duplicate key '" + key.text() + "' at lines "
                        + first.line() + " and " + key.mark().line() + "; a key may appear once in a mapping"));
            }
        }
        return new Mapping(entries, mark);
    }

    private Scalar key(String name) {
        boolean plain = !starts.quotedOrTagged(parser.currentTokenLocation());
        return new Scalar(plain ? ScalarValues.plainKey(name, FACTORY) : name, name, mark());
    }

    private Sequence sequence(Mark mark) throws IOException {
        List<Node> items = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token != null && token != JsonToken.END_ARRAY;
                token = parser.nextToken()) {
            items.add(value(token));
        }
        return new Sequence(items, mark);
    }

    private Mark mark() {
        JsonLocation location = parser.currentTokenLocation();
        return new Mark(location.getLineNr(), location.getColumnNr());
    }
}
