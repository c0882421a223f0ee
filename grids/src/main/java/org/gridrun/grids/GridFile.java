package org.gridrun.grids;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.gridrun.grids.yaml.YamlTreeReader;

/**
 * A grid file, read and validated: its named runs, ready to expand into experiments.
 *
 * <p>The file is YAML with three top-level keys. {@code runs} maps run names to runs; a run has a {@code grid} (a
 * mapping of trainer keys to a value or a list of values, or a list of such sub-grids), and optionally a
 * {@code prefix} for experiment names (default: the run name), {@code exclude} (keys left out of names) and
 * {@code seeds} (N for seeds 1..N, or a list, added as the last axis {@code seed}). {@code defaults} is merged under
 * every sub-grid of every run. {@code shared} is free-form, a place for anchors that runs merge with
 * {@code <<: *name}.
 *
 * <p>{@link #load} reports every problem of the file at once in one {@link GridException}; a file that loads expands
 * without further errors, except for a run name the file lacks.
 */
public final class GridFile {
    private final Path path;
    private final String name;
    private final Map<String, RunSpec> runs;

    private GridFile(Path path, Map<String, RunSpec> runs) {
        this.path = path;
        this.name = GridLocator.baseName(path);
        this.runs = runs;
    }

    /**
     * Reads and validates a grid file, checking every key and value against {@code schema}.
     *
     * @throws GridException with every problem found, each located as {@code file:line:col} with the file as given
     */
    public static GridFile load(Path file, KeySchema schema) {
        String shown = file.toString();
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
        Map<String, RunSpec> runs = GridReader.read(YamlTreeReader.read(source), schema, problems);
        problems.throwIfAny();
        return new GridFile(file, runs);
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
        RunSpec run = runs.get(runName);
        if (run == null) {
            throw new GridException("no run '" + runName + "' in " + path + "; runs are: "
                    + String.join(", ", runs.keySet()) + Suggestions.didYouMean(runName, runs.keySet()));
        }
        return Expander.expand(name, run);
    }

    /** The experiments of every run, runs in file order. */
    public List<Experiment> expandAll() {
        return runs.values().stream().flatMap(run -> Expander.expand(name, run).stream()).toList();
    }

    /** TEMPORARY until the grids-lang branch lands. */
    public List<RunDependency> dependencies(String run) {
        return List.of();
    }

    /** TEMPORARY until the grids-lang branch lands. */
    public SlurmSpec slurm(String run) {
        return SlurmSpec.empty();
    }

    @Override
    public String toString() {
        return "GridFile[" + path + ", runs=" + runs.keySet() + "]";
    }
}
