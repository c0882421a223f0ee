package org.gridrun.jobs.plan;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;

/**
 * Turns expanded experiments into a plan: resolves each config, finds its run directory and its known state.
 *
 * <p>Identity is the config hash, not the name: an experiment that completed under another name (the grid gained
 * values, so indices moved) keeps its run directory and is not run again.
 */
public final class Planner {
    private final Workspace workspace;
    private final ResultsStore store;

    public Planner(Workspace workspace, ResultsStore store) {
        this.workspace = workspace;
        this.store = store;
    }

    /**
     * Plans {@code experiments} of {@code file}; every resolved config is checked by the trainer first, so a value
     * out of range fails here, naming the file, run and experiment, before any job starts.
     */
    public Plan plan(GridFile file, List<Experiment> experiments) {
        Map<String, StoredExperiment> stored = new HashMap<>();
        for (StoredExperiment e : store.experiments(file.name(), null)) {
            stored.put(e.id(), e);
        }
        List<PlannedExperiment> planned = new ArrayList<>();
        for (Experiment e : experiments) {
            planned.add(plan(file, e, stored.get(e.id())));
        }
        return new Plan(file.name(), planned);
    }

    private PlannedExperiment plan(GridFile file, Experiment e, StoredExperiment stored) {
        Map<String, Object> config = TrainerConfig.resolve(e.params());
        try {
            TrainerConfig.from(config);
        } catch (ConfigException bad) {
            throw new UserInputException(file.path() + ": run '" + e.run() + "', experiment " + e.name() + ": "
                    + bad.getMessage(), bad);
        }
        ExperimentRecord record = new ExperimentRecord(e.grid(), e.run(), e.name(), e.id(), e.params(), config);
        RunDir dir = RunDir.at(workspace.runDir(e.grid(), e.run(), e.name()));
        if (stored != null && stored.runDir() != null && Files.isDirectory(stored.runDir())) {
            dir = RunDir.at(stored.runDir());
        }
        RunState known = dir.exists() ? dir.status().state() : null;
        if (known == null && stored != null) {
            known = stored.state();
        }
        return new PlannedExperiment(record, dir, known);
    }
}
