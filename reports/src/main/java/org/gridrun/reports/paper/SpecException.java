package org.gridrun.reports.paper;

import java.util.List;

/**
 * A figure spec file that cannot be used: every problem found, each {@code file:line:col: message}.
 */
public final class SpecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    SpecException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem, {@code file:line:col: message}. */
    public List<String> problems() {
        return problems;
    }
}
