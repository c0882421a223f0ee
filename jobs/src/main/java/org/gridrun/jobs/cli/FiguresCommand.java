package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.gridrun.reports.paper.FigureSpec;
import org.gridrun.reports.paper.PaperFigures;
import org.gridrun.reports.paper.PaperResult;
import org.gridrun.reports.paper.PaperSpec;
import org.gridrun.reports.paper.SpecException;
import org.gridrun.reports.paper.SpecReader;
import org.gridrun.reports.paper.TableSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run figures --spec figures/nuq.yaml}: brings the store up to date with the run directories of the
 * spec's grids, then writes the spec's figures (PNG and SVG) and tables (Markdown, CSV, LaTeX) under
 * {@code reports/figures/<spec>/}, prints the tables as Markdown and warns of missing data on stderr.
 */
@Command(name = "figures", mixinStandardHelpOptions = true,
        description = "Regenerate the papers' figures and tables from a spec (docs/figures.md).")
final class FiguresCommand implements Callable<Integer> {
    @Option(names = {"-s", "--spec"}, paramLabel = "FILE", required = true,
            description = "The figure spec, e.g. figures/nuq.yaml (relative to the working directory).")
    Path specFile;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "Where to write (default: reports/figures/SPEC under the working directory).")
    Path out;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec command;

    @Override
    public Integer call() {
        Workspace workspace = common.workspace();
        Path file = workspace.root().resolve(specFile);
        PaperSpec spec = readSpec(file, specFile.toString());
        Path dir = out != null ? workspace.root().resolve(out)
                : workspace.root().resolve("reports").resolve("figures").resolve(spec.name());
        PrintWriter stdout = command.commandLine().getOut();
        PrintWriter stderr = command.commandLine().getErr();
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            grids(spec).forEach(grid -> RunDirectories.ingest(workspace, store, grid));
            PaperResult result = PaperFigures.write(store, spec, dir);
            stdout.print(result.markdown());
            result.warnings().forEach(w -> stderr.println("warning: " + w));
            stdout.println("figures: " + result.files().size() + " files in " + dir);
        }
        stdout.flush();
        stderr.flush();
        return 0;
    }

    /** The spec in {@code file}, shown as {@code shown}; its problems are bad input, one line each. */
    static PaperSpec readSpec(Path file, String shown) {
        try {
            return SpecReader.load(file, shown);
        } catch (SpecException e) {
            throw new UserInputException(e.getMessage());
        }
    }

    private static Set<String> grids(PaperSpec spec) {
        Set<String> grids = new LinkedHashSet<>();
        spec.figures().stream().map(FigureSpec::source).forEach(s -> grids.add(s.grid()));
        spec.tables().stream().map(TableSpec::source).forEach(s -> grids.add(s.grid()));
        return grids;
    }
}
