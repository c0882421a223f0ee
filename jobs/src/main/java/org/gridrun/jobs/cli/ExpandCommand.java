package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.plan.TrainerKeySchema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run expand --grid G}: prints one experiment name per line, optionally with its id.
 */
@Command(name = "expand", mixinStandardHelpOptions = true,
        description = "Print the experiments a grid expands to, one name per line.")
final class ExpandCommand implements Callable<Integer> {
    @Option(names = {"-g", "--grid"}, paramLabel = "NAME", required = true,
            description = "Grid: grids/NAME.yaml or a path.")
    String grid;

    @Option(names = {"-r", "--run"}, paramLabel = "NAME", description = "A named run (default: every run).")
    String run;

    @Option(names = "--ids", description = "Print each experiment's config hash before its name.")
    boolean ids;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        GridFile file = GridFile.load(GridFile.resolve(grid, common.workspace().gridsDir()), new TrainerKeySchema());
        List<Experiment> experiments = run == null ? file.expandAll() : file.expand(run);
        PrintWriter out = spec.commandLine().getOut();
        for (Experiment e : experiments) {
            out.println(ids ? e.id() + " " + e.name() : e.name());
        }
        out.flush();
        return 0;
    }
}
