package org.gridrun.jobs.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.train.TrainerConfig;

/** A tiny experiment staged as grid-run stages one, for tests that run {@code grid-run train} on it. */
final class StagedExperiment {
    private StagedExperiment() {
    }

    /**
     * Stages {@code runs/g/r/<name>} under {@code workdir}: experiment {@code id-<name>} of grid g, run r, a QSGD MLP
     * of 30 steps that logs every 5 and saves a checkpoint every 10.
     */
    static RunDir stage(Path workdir, String name) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("hidden", "8");
        params.put("ngpu", 2L);
        params.put("batch_size", 8L);
        params.put("niters", 30L);
        params.put("log_interval", 5L);
        params.put("chkpt_iter", 10L);
        params.put("method", "qsgd");
        RunDir dir = RunDir.at(workdir.resolve("runs/g/r/" + name));
        dir.writeExperiment(new ExperimentRecord("g", "r", name, "id-" + name, params,
                TrainerConfig.resolve(params)));
        return dir;
    }
}
