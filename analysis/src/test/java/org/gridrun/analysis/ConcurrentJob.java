package org.gridrun.analysis;

import java.nio.file.Path;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;

/**
 * What one job of {@link StoreConcurrencyTest} does in its own JVM: writes its spool in four parts, ingesting it
 * into the store at a JDBC URL after each, and once more at the end.
 *
 * <p>Arguments: the store's URL, a root directory, the job's index and its number of records.
 */
final class ConcurrentJob {
    private ConcurrentJob() {
    }

    public static void main(String[] args) {
        String url = args[0];
        int index = Integer.parseInt(args[2]);
        int records = Integer.parseInt(args[3]);
        ExperimentRecord e = Fixtures.experiment("job" + index, "qsgd", 4, index);
        RunDir dir = Fixtures.runDir(Path.of(args[1]), e);
        dir.status().append(RunState.RUNNING, "pid " + ProcessHandle.current().pid());
        try (ResultsStore store = ResultsStore.openUrl(url)) {
            for (int part = 0; part < 4; part++) {
                Fixtures.appendMetric(dir, "loss", (long) part * records / 4, (long) (part + 1) * records / 4, 1);
                store.ingest(dir);
            }
            dir.status().append(RunState.COMPLETED, "exit 0");
            store.ingest(dir);
        }
    }
}
