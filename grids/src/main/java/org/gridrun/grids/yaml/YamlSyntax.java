package org.gridrun.grids.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the YAML parser's exception into one located problem with a one-line message.
 *
 * <p>The parser's message is SnakeYAML's: lines of text, each group closed by {@code in 'reader', line L, column C:}
 * and a snippet of the source. The last group is the problem, an earlier one its context (what was being parsed).
 * The problem becomes the message and its mark the location; the context is added in parentheses with its line and
 * column. A message without marks keeps its first line and the exception's location.
 */
final class YamlSyntax {
    private static final Pattern MARK = Pattern.compile("^\\s*in '[^']*', line (\\d+), column (\\d+):?\\s*$");

    private YamlSyntax() {
    }

    static YamlProblem problem(JsonProcessingException e) {
        List<String> texts = new ArrayList<>();
        List<Mark> marks = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        boolean snippet = false;
        for (String line : String.valueOf(e.getOriginalMessage()).split("\\R")) {
            Matcher m = MARK.matcher(line);
            if (m.matches()) {
                texts.add(text.toString());
                marks.add(new Mark(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
                text.setLength(0);
                snippet = true;
            } else if (snippet && line.startsWith("    ")) {
                continue;
            } else if (!line.isBlank()) {
                snippet = false;
                text.append(text.isEmpty() ? "" : "; ").append(line.strip());
            }
        }
        if (marks.isEmpty()) {
            return new YamlProblem(location(e.getLocation()), "malformed YAML: " + text);
        }
        int last = marks.size() - 1;
        String message = texts.get(last);
        if (last > 0 && !texts.get(last - 1).isEmpty()) {
            message += " (" + texts.get(last - 1) + " at " + marks.get(last - 1) + ")";
        }
        return new YamlProblem(marks.get(last), message);
    }

    private static Mark location(JsonLocation location) {
        return location == null ? new Mark(1, 1) : new Mark(location.getLineNr(), location.getColumnNr());
    }
}
