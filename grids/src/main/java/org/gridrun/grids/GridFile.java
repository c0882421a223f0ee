package org.gridrun.grids;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A grid file, read and validated: its named runs, ready to expand into experiments.
 *
 * <p>The file is YAML. {@code runs} maps run names to runs; a run has a {@code grid} (a mapping of trainer keys to
 * a value or a list of values, or a list of such sub-grids), and optionally a {@code prefix} for experiment names
 * (default: the run name), {@code exclude} (keys left out of names), {@code seeds} (N for seeds 1..N, or a list,
 * added as the last axis {@code seed}), {@code slurm} (its SLURM settings) and {@code after} (runs it waits for). A
 * value may carry overrides ({@code nuq: {mul: 0.5}}), keys may vary together ({@code zip:}), and generators give
 * values by rule ({@code {linspace: [0, 1, 11]}}). {@code defaults} is merged under every sub-grid of every run;
 * {@code slurm} holds the file's SLURM settings; {@code include} names files whose defaults, slurm settings and
 * runs are merged under this file's; {@code shared} is free-form, a place for anchors that runs merge with
 * {@code <<: *name}. {@code docs/grid-language.md} describes every construct.
 *
 * <p>{@link #load} reports every problem of the file and its includes at once in one {@link GridException}; a file
 * that loads expands without further errors, except for a run name the file lacks.
 */
public final class GridFile {
    private final Path path;
    private final String name;
    private final Map<String, RunSpec> runs;
    private final SlurmBlock slurm;

    private GridFile(Path path, GridReader.Grid grid) {
        this.path = path;
        this.name = GridLocator.baseName(path);
        this.runs = grid.runs();
        this.slurm = grid.slurm();
    }

    /** Names a grid cannot have: folders under reports/ (and jobs/) that the build or grid-run figures own. */
    static final java.util.Set<String> RESERVED_NAMES = java.util.Set.of("src", "target", "figures");

    /**
     * Reads and validates a grid file and the files it includes, checking every key and value against
     * {@code schema}.
     *
     * @throws GridException with every problem found, each located as {@code file:line:col} with the file as given
     *                       (an included file as resolved against the including file's folder)
     */
    public static GridFile load(Path file, KeySchema schema) {
        String shown = file.toString();
        String name = nameOf(file);
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            throw new GridException(shown + ": the grid is named after its file, and '" + name + "' names no "
                    + "directory of its own under runs/; rename the file");
        }
        if (RESERVED_NAMES.contains(name)) {
            throw new GridException(shown + ": the grid is named after its file, and reports/" + name + "/ is "
                    + (name.equals("figures") ? "where grid-run figures writes" : "a folder of gridrun's own build")
                    + ", which its report would overwrite; rename the file");
        }
        String source;
        try {
            source = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new GridException("no grid file " + shown);
        } catch (CharacterCodingException e) {
            throw new GridException("cannot read " + shown + ": it is not UTF-8 text");
        } catch (IOException e) {
            throw new GridException("cannot read " + shown + ": " + e.getMessage());
        }
        ProblemList problems = new ProblemList(shown);
        GridReader.Grid grid = GridReader.read(SourceLoader.load(file, source, problems), schema, problems);
        problems.throwIfAny();
        return new GridFile(file, grid);
    }

    /**
     * The grid file that a {@code --grid} argument names: {@code <gridsDir>/<gridArg>.yaml}, or else
     * {@code gridArg} as a path when it is an existing file.
     *
     * @throws GridException when neither exists; the message lists the grids in {@code gridsDir}
     */
    public static Path resolve(String gridArg, Path gridsDir) {
        return GridLocator.resolve(gridArg, gridsDir);
    }

    /**
     * The name of the grid in {@code file}, under which its runs and results are kept: the file name without
     * {@code .yaml}, what {@link #name()} of the loaded file says.
     */
    public static String nameOf(Path file) {
        return GridLocator.baseName(file);
    }

    /** The grid's name: the file name without {@code .yaml}. */
    public String name() {
        return name;
    }

    /** The file as given to {@link #load}. */
    public Path path() {
        return path;
    }

    /** The run names in file order. */
    public List<String> runNames() {
        return List.copyOf(runs.keySet());
    }

    /**
     * The experiments of one run, in order, with identical configs dropped after their first appearance.
     *
     * @throws GridException when the file has no run {@code runName}
     */
    public List<Experiment> expand(String runName) {
        return Expander.expand(name, run(runName));
    }

    /**
     * How the jobs of one run are submitted to SLURM: the run's {@code slurm:} block merged over the file's (the
     * run's settings win; options and env entry by entry, setup and extra as a whole), with the defaults for what
     * neither sets. A grid without {@code slurm:} gives {@link SlurmSpec#empty()}.
     *
     * @throws GridException when the file has no run {@code runName}
     */
    public SlurmSpec slurm(String runName) {
        return run(runName).slurm().over(slurm).spec();
    }

    /**
     * The runs whose experiments one run waits for, as its {@code after:} names them, in order; empty when it waits
     * for none. Every run named exists in this grid; cycles are not checked here.
     *
     * @throws GridException when the file has no run {@code runName}
     */
    public List<RunDependency> dependencies(String runName) {
        return run(runName).after().stream().map(AfterReader.After::dependency).toList();
    }

    /** The experiments of every run, runs in file order. */
    public List<Experiment> expandAll() {
        return runs.values().stream().flatMap(run -> Expander.expand(name, run).stream()).toList();
    }

    /** The run {@code runName}, or a {@link GridException} listing the runs there are. */
    RunSpec run(String runName) {
        RunSpec run = runs.get(runName);
        if (run == null) {
            throw new GridException("no run '" + runName + "' in " + path + "; runs are: "
                    + String.join(", ", runs.keySet()) + Suggestions.didYouMean(runName, runs.keySet()));
        }
        return run;
    }

    @Override
    public String toString() {
        return "GridFile[" + path + ", runs=" + runs.keySet() + "]";
    }
}
