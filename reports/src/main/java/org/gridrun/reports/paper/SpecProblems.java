package org.gridrun.reports.paper;

import java.util.ArrayList;
import java.util.List;

/**
 * The problems found in one spec file, each {@code file:line:col: message}, so that all are reported at once.
 */
final class SpecProblems {
    private final String file;
    private final List<String> messages = new ArrayList<>();

    SpecProblems(String file) {
        this.file = file;
    }

    /** The file as messages name it. */
    String file() {
        return file;
    }

    void add(int line, int column, String message) {
        messages.add(file + ":" + line + ":" + column + ": " + message);
    }

    void add(SpecNode at, String message) {
        add(at.line(), at.column(), message);
    }

    /** Throws a {@link SpecException} listing every problem, if there is one. */
    void throwIfAny() {
        if (!messages.isEmpty()) {
            throw new SpecException(messages);
        }
    }
}
