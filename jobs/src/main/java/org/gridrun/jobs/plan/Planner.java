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
import org.gridrun.grids.Experiment;
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

    /** Plans {@code experiments}, all of one grid. */
    public Plan plan(String grid, List<Experiment> experiments) {
        Map<String, StoredExperiment> stored = new HashMap<>();
        for (StoredExperiment e : store.experiments(grid, null)) {
            stored.put(e.id(), e);
        }
        List<PlannedExperiment> planned = new ArrayList<>();
        for (Experiment e : experiments) {
            planned.add(plan(e, stored.get(e.id())));
        }
        return new Plan(grid, planned);
    }

    private PlannedExperiment plan(Experiment e, StoredExperiment stored) {
        ExperimentRecord record = new ExperimentRecord(e.grid(), e.run(), e.name(), e.id(), e.params(),
                TrainerConfig.resolve(e.params()));
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
