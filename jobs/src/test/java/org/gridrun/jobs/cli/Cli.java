package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import picocli.CommandLine;

/** Runs the real {@code grid-run} command line in this JVM against a working directory, capturing its output. */
final class Cli {
    private Cli() {
    }

    /** What one command did. */
    record Result(int exit, String out, String err) {
    }

    /** Runs {@code args} with {@code --workdir workdir} appended, so it reaches a subcommand too. */
    static Result run(Path workdir, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = GridRun.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        String[] all = Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--workdir";
        all[args.length + 1] = workdir.toString();
        return new Result(cli.execute(all), out.toString(), err.toString());
    }
}
