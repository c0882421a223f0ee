package org.gridrun.jobs.plan;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.grids.RunDependency;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;

/**
 * Turns a grid's runs into a plan: resolves each experiment's config, finds its run directory and known state, and
 * links it to the experiments its run's {@code after:} names.
 *
 * <p>Identity is the config hash, not the name: an experiment that completed under another name (the grid gained
 * values, so indices moved) keeps its run directory and is not run again. A run that another run waits for is
 * planned with it even when not asked for, so its unfinished experiments run first.
 */
public final class Planner {
    private final Workspace workspace;
    private final ResultsStore store;

    public Planner(Workspace workspace, ResultsStore store) {
        this.workspace = workspace;
        this.store = store;
    }

    /**
     * Plans the runs {@code runs} of {@code file} (null: every run) and the runs they wait for; every resolved config
     * is checked by the trainer first, so a value out of range fails here, naming the file, run and experiment,
     * before anything is written.
     */
    public Plan plan(GridFile file, List<String> runs) {
        List<String> wanted = closure(file, runs == null ? file.runNames() : runs);
        Map<String, StoredExperiment> stored = new HashMap<>();
        for (StoredExperiment e : store.experiments(file.name(), null)) {
            stored.put(e.id(), e);
        }
        Map<String, List<PlannedExperiment>> byRun = new LinkedHashMap<>();
        Map<String, List<Experiment>> expanded = new LinkedHashMap<>();
        Set<String> seen = new java.util.HashSet<>();
        for (String run : wanted) {
            List<Experiment> experiments = file.expand(run);
            expanded.put(run, experiments);
            List<Experiment> fresh = new ArrayList<>(experiments.size());
            for (Experiment e : experiments) {
                if (seen.add(e.id())) {
                    fresh.add(e);
                }
            }
            // validating a config is independent of the others: use every core, and report the first bad
            // experiment in grid order, whichever thread found it
            List<Object> outcomes = fresh.parallelStream().map(e -> {
                try {
                    return (Object) plan(file, e, stored.get(e.id()));
                } catch (UserInputException bad) {
                    return bad;
                }
            }).toList();
            List<PlannedExperiment> planned = new ArrayList<>(outcomes.size());
            for (Object outcome : outcomes) {
                if (outcome instanceof UserInputException bad) {
                    throw bad;
                }
                planned.add((PlannedExperiment) outcome);
            }
            byRun.put(run, planned);
        }
        List<PlannedExperiment> all = byRun.values().stream().flatMap(List::stream).toList();
        JobGraph graph = JobGraph.of(all, edges(file, wanted, expanded));
        return new Plan(file.name(), all, graph);
    }

    /** {@code runs} and every run they wait for, each after the runs it waits for. */
    private static List<String> closure(GridFile file, List<String> runs) {
        Set<String> result = new LinkedHashSet<>();
        for (String run : runs) {
            visit(file, run, result, new LinkedHashSet<>());
        }
        return List.copyOf(result);
    }

    private static void visit(GridFile file, String run, Set<String> result, Set<String> path) {
        if (result.contains(run)) {
            return;
        }
        if (!path.add(run)) {
            return; // runs that wait for each other: the job graph names the experiments on the cycle
        }
        file.expand(run);
        for (RunDependency d : file.dependencies(run)) {
            visit(file, d.run(), result, path);
        }
        path.remove(run);
        result.add(run);
    }

    private static List<JobGraph.Edge> edges(GridFile file, List<String> runs, Map<String, List<Experiment>> byRun) {
        List<JobGraph.Edge> edges = new ArrayList<>();
        for (String run : runs) {
            for (RunDependency d : file.dependencies(run)) {
                for (Experiment dependent : byRun.get(run)) {
                    for (Experiment prerequisite : byRun.get(d.run())) {
                        if (matches(dependent, prerequisite, d.match())) {
                            edges.add(new JobGraph.Edge(prerequisite.id(), dependent.id()));
                        }
                    }
                }
            }
        }
        return edges;
    }

    private static boolean matches(Experiment a, Experiment b, List<String> keys) {
        for (String key : keys) {
            if (!Objects.equals(a.params().get(key), b.params().get(key))) {
                return false;
            }
        }
        return true;
    }

    private PlannedExperiment plan(GridFile file, Experiment e, StoredExperiment stored) {
        Map<String, Object> config;
        try {
            config = TrainerConfig.validate(e.params());
        } catch (ConfigException bad) {
            throw new UserInputException(where(file, e, bad.getMessage()) + "run '" + e.run() + "', experiment "
                    + e.name() + ": " + bad.getMessage(), bad);
        }
        ExperimentRecord record = new ExperimentRecord(e.grid(), e.run(), e.name(), e.id(), e.params(), config);
        RunDir dir = RunDir.at(workspace.runDir(e.grid(), e.run(), e.name()));
        if (stored != null && stored.runDir() != null && Files.isDirectory(stored.runDir())) {
            dir = RunDir.at(stored.runDir());
        } else {
            requireSameExperiment(file, e, config, dir);
        }
        RunState known = dir.exists() ? dir.status().state() : null;
        if (known == null && stored != null) {
            known = stored.state();
        }
        return new PlannedExperiment(record, dir, known);
    }

    /**
     * Refuses to reuse a run directory that holds another configuration under the same name: its state (say
     * COMPLETED) would otherwise be taken for this experiment's, and the new config would silently never run. This
     * happens when a key left out of the names (a run's {@code exclude}) changes. The directory is left as it is.
     */
    private static void requireSameExperiment(GridFile file, Experiment e, Map<String, Object> config, RunDir dir) {
        if (!Files.isRegularFile(dir.experimentFile())) {
            return;
        }
        ExperimentRecord there = dir.readExperiment();
        if (there.id().equals(e.id())) {
            return;
        }
        List<String> changed = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>(config.keySet());
        keys.addAll(there.config().keySet());
        for (String key : keys) {
            if (!Objects.equals(String.valueOf(there.config().get(key)), String.valueOf(config.get(key)))) {
                changed.add(key + " " + there.config().get(key) + " there, " + config.get(key) + " here");
            }
        }
        if (changed.isEmpty()) {
            return; // the same configuration under an older canonical form
        }
        String first = changed.get(0).substring(0, changed.get(0).indexOf(' '));
        String location = e.origin(first).map(origin -> origin + ": ").orElse(file.path() + ": ");
        throw new UserInputException(location + "run '" + e.run() + "', experiment " + e.name() + ": its run "
                + "directory " + dir.path() + " holds a different configuration (" + String.join("; ", changed)
                + "). The experiment's name leaves out what changed: name it (take the key out of the run's "
                + "exclude, or give the run another prefix), or move that directory away to run the new "
                + "configuration in its place.");
    }

    /**
     * {@code file:line:col: } of the value the trainer rejected: the key the message starts with, or else the first
     * other key it names that the grid set (a check across keys, such as {@code warmup_iters must not exceed niters},
     * may start with a default); the file when the grid set none of them.
     */
    private static String where(GridFile file, Experiment e, String message) {
        for (String word : message.split("[^A-Za-z0-9_]+")) {
            Optional<String> origin = e.origin(word).map(o -> o + ": ");
            if (origin.isPresent()) {
                return origin.get();
            }
        }
        return file.path() + ": ";
    }
}
