package org.gridrun.reports.paper;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Missing data found while drawing a spec: each warning names the spec file, the line of the series and what is
 * missing (each once, though a figure and its table both find it), e.g. {@code figures/nuq.yaml:14: figure 'est_var', series 'ALQ': no experiment matches {method=alq}}.
 */
final class Warnings {
    private final String file;
    private final Set<String> messages = new LinkedHashSet<>();

    Warnings(String file) {
        this.file = file;
    }

    void add(String what, SeriesSpec series, String message) {
        messages.add(file + ":" + series.line() + ": " + what + ", series '" + series.label() + "': " + message);
    }

    void add(String what, int line, String message) {
        messages.add(file + ":" + line + ": " + what + ": " + message);
    }

    List<String> all() {
        return List.copyOf(messages);
    }
}
