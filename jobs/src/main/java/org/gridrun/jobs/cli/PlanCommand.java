package org.gridrun.jobs.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.PlannedExperiment;
import org.gridrun.jobs.plan.Planner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run plan --grid G [--dot [FILE]]}: what a run of the grid would do, experiment by experiment, and what
 * each waits for; {@code --dot} exports the dependency graph for Graphviz.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Show what running a grid would do and what each experiment waits for; --dot exports the "
                + "job graph in Graphviz DOT (dot -Tsvg plan.dot > plan.svg).")
final class PlanCommand implements Callable<Integer> {
    @Mixin
    GridSelection selection;

    @Option(names = "--dot", paramLabel = "FILE", arity = "0..1", fallbackValue = "-",
            description = "Print the job graph in DOT, to FILE or (without one) to standard output.")
    String dot;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Workspace workspace = common.workspace();
        GridFile file = selection.load(workspace);
        PrintWriter out = spec.commandLine().getOut();
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            Plan plan = new Planner(workspace, store).plan(file, selection.runs());
            if (dot != null) {
                writeDot(plan.graph().toDot(), out);
                return 0;
            }
            GridSession.header(out, plan, "");
            for (PlannedExperiment e : plan.graph().topologicalOrder()) {
                List<PlannedExperiment> after = plan.graph().prerequisites(e);
                out.printf(Locale.ROOT, "  %-10s %s%s%n", plan.runs(e) ? "run" : e.known().name().toLowerCase(
                        Locale.ROOT), e.record().name(), after.isEmpty() ? "" : "  after " + after.size() + ": "
                        + String.join(", ", after.stream().limit(3).map(p -> p.record().name()).toList())
                        + (after.size() > 3 ? ", …" : ""));
            }
        }
        out.flush();
        return 0;
    }

    private void writeDot(String text, PrintWriter out) {
        if (dot.equals("-")) {
            out.print(text);
            out.flush();
            return;
        }
        try {
            Files.writeString(Path.of(dot), text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dot + ": " + e.getMessage(), e);
        }
        out.println("wrote " + dot);
        out.flush();
    }
}
