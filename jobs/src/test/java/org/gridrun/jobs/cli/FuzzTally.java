package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * What a fuzz test of one reader saw: how many mutations of each kind, how each ended, and which broke the rule
 * that a bad file ends with exit 2 and one line naming it, without a stack trace. {@link #finish} prints the
 * summary line and fails the test on any breach.
 */
final class FuzzTally {
    /** Read and accepted: the damage left a file the reader takes (a changed value it cannot tell). */
    static final String READ = "read";
    /** Refused with exit 2 and a one-line message naming the file. */
    static final String BAD_FILE = "exit 2 naming the file";

    private final String reader;
    private final long seed;
    private final Map<Mutations.Kind, Integer> kinds = new LinkedHashMap<>();
    private final Map<String, Integer> outcomes = new LinkedHashMap<>();
    private final List<String> breaches = new ArrayList<>();
    private int stackTraces;

    FuzzTally(String reader, long seed) {
        this.reader = reader;
        this.seed = seed;
    }

    /**
     * Runs {@code read} as a command does, through the command line's {@link ErrorHandler}, and judges the result:
     * exit 0 is {@link #READ}; exit 2 with one line that names {@code file} (and no exception name) is
     * {@link #BAD_FILE}; anything else is a breach. Returns the outcome.
     */
    String judge(Mutations.Mutation m, Path file, Callable<?> read) {
        Cli.Result result = throughErrorHandler(read);
        return record(m, file, result.exit(), result.err());
    }

    /** Judges what a real command printed and returned, as {@link #judge} does. */
    String record(Mutations.Mutation m, Path file, int exit, String err) {
        kinds.merge(m.kind(), 1, Integer::sum);
        boolean trace = err.contains("\tat ") || err.contains("Exception") || err.contains("java.");
        stackTraces += trace ? 1 : 0;
        String outcome;
        if (exit == 0 && !trace) {
            outcome = READ;
        } else if (exit == 2 && !trace && err.contains(file.toString()) && err.strip().lines().count() == 1) {
            outcome = BAD_FILE;
        } else {
            outcome = "breach";
            breaches.add(m.kind() + " (" + m.bytes().length + " bytes): exit " + exit + ": " + err.strip());
        }
        outcomes.merge(outcome, 1, Integer::sum);
        return outcome;
    }

    /** Counts an outcome that a test judged itself (for example, rows kept in the store). */
    void count(String outcome) {
        outcomes.merge(outcome, 1, Integer::sum);
    }

    /** Records a breach the test found itself. */
    void breach(Mutations.Mutation m, String what) {
        breaches.add(m.kind() + " (" + m.bytes().length + " bytes): " + what);
    }

    /** Prints the summary line and fails on any breach. */
    void finish() {
        int total = kinds.values().stream().mapToInt(Integer::intValue).sum();
        String line = String.format(Locale.ROOT, "fuzz %s, seed %d: %d mutations (%s); ended: %s; %d stack traces, "
                + "%d breaches", reader, seed, total, text(kinds), text(outcomes), stackTraces, breaches.size());
        System.out.println(line);
        assertTrue(breaches.isEmpty(), line + "\n" + String.join("\n", breaches.subList(0,
                Math.min(20, breaches.size()))));
    }

    private static String text(Map<?, Integer> counts) {
        List<String> parts = new ArrayList<>();
        counts.forEach((k, n) -> parts.add(k.toString().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + n));
        return String.join(", ", parts);
    }

    /** Runs {@code read} as the body of a command, so that failures take the path every command's take. */
    static Cli.Result throughErrorHandler(Callable<?> read) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new ReadCommand(read));
        cli.setExecutionExceptionHandler(new ErrorHandler());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return new Cli.Result(cli.execute(), out.toString(), err.toString());
    }

    /** A command whose body is a reader. */
    @Command(name = "read")
    static final class ReadCommand implements Callable<Integer> {
        private final Callable<?> read;

        ReadCommand(Callable<?> read) {
            this.read = read;
        }

        @Override
        public Integer call() throws Exception {
            read.call();
            return 0;
        }
    }
}
