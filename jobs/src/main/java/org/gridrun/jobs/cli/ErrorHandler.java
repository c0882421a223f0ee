package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import org.gridrun.analysis.StoreAccessException;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.grids.GridException;
import org.gridrun.jobs.UserInputException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns exceptions into exit codes and one-line messages: bad input (a grid, a config, an option, a store's secret,
 * a {@link BadFileException bad file}) exits 2, any other failure 1; the message never names an exception class,
 * and the stack trace comes only with {@code --verbose}.
 */
final class ErrorHandler implements IExecutionExceptionHandler {
    static final int FAILURE = 1;
    static final int BAD_INPUT = 2;

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        boolean badInput = isBadInput(ex);
        String message = BadFileException.messageOf(ex);
        err.println(cmd.getColorScheme().errorText("grid-run: " + (badInput ? "" : "error: ") + message));
        if (verbose(parseResult)) {
            ex.printStackTrace(err);
        } else if (!badInput) {
            err.println("(run again with --verbose for the stack trace)");
        }
        err.flush();
        return badInput ? BAD_INPUT : FAILURE;
    }

    private static boolean isBadInput(Exception ex) {
        return ex instanceof GridException || ex instanceof ConfigException || ex instanceof UserInputException
                || ex instanceof StoreAccessException || ex instanceof BadFileException
                || ex instanceof UncheckedIOException && ex.getCause() instanceof java.nio.file.NoSuchFileException;
    }

    private static boolean verbose(ParseResult parseResult) {
        for (CommandLine line : parseResult.asCommandLineList()) {
            if (line.getParseResult() != null && line.getParseResult().hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
