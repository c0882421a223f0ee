package org.gridrun.jobs.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;

/**
 * What the chaos left behind, counted against independent evidence: the store against the spools, line by line,
 * and each attempt's resume step against the checkpoints {@link CheckpointWatch} saw on disk before it started.
 *
 * @param experiments  run directories of the grid
 * @param completed    experiments the store holds as COMPLETED
 * @param storeRows    metric rows in the store, over all experiments
 * @param spoolLines   complete records in the spools
 * @param lost         spool records the store lacks or holds with another value
 * @param duplicated   store rows beyond one per spool record: a (metric, step) twice, or one no spool has
 * @param attempts     times a trainer started (RUNNING entries), over all experiments
 * @param resumed      attempts that resumed from a checkpoint
 * @param retrained    steps trained again although a checkpoint past them was on disk when the attempt started
 */
record ChaosAudit(int experiments, int completed, long storeRows, long spoolLines, long lost, long duplicated,
                  int attempts, int resumed, long retrained) {
    private static final Pattern RESUMED = Pattern.compile("resumed from checkpoint at step (\\d+)");

    /** Audits the run directories under {@code runDirs} against the store at {@code store}. */
    static ChaosAudit of(Path runDirs, Path store, CheckpointWatch watch) throws IOException {
        List<RunDir> dirs;
        try (Stream<Path> list = Files.list(runDirs)) {
            dirs = list.filter(Files::isDirectory).map(RunDir::at).sorted((a, b) -> a.path().compareTo(b.path()))
                    .toList();
        }
        int completed = 0;
        long rows = 0;
        long lines = 0;
        long lost = 0;
        long duplicated = 0;
        int attempts = 0;
        int resumed = 0;
        long retrained = 0;
        try (ResultsStore results = ResultsStore.open(store)) {
            for (RunDir dir : dirs) {
                String id = dir.readExperiment().id();
                completed += results.state(id).orElse(null) == RunState.COMPLETED ? 1 : 0;
                Map<String, Double> spool = new HashMap<>();
                for (MetricRecord r : MetricSpool.read(dir.metricsFile())) {
                    spool.put(r.name() + "@" + r.step(), r.value());
                    lines++;
                }
                Set<String> names = new HashSet<>(results.latest(id).keySet());
                spool.keySet().forEach(key -> names.add(key.substring(0, key.lastIndexOf('@'))));
                Set<String> stored = new HashSet<>();
                for (String name : names) {
                    for (MetricRecord r : results.series(id, name)) {
                        rows++;
                        String key = name + "@" + r.step();
                        Double expected = spool.get(key);
                        if (!stored.add(key) || expected == null) {
                            duplicated++;
                        } else if (Double.compare(expected, r.value()) != 0) {
                            lost++;
                        }
                    }
                }
                lost += spool.keySet().stream().filter(key -> !stored.contains(key)).count();
                for (StatusEntry entry : dir.status().history()) {
                    if (entry.state() == RunState.RUNNING) {
                        Matcher from = RESUMED.matcher(entry.detail());
                        boolean resumes = from.find();
                        long step = resumes ? Long.parseLong(from.group(1)) : 0;
                        attempts++;
                        resumed += resumes ? 1 : 0;
                        retrained += Math.max(0, watch.highestBefore(dir, entry.time()) - step);
                    }
                }
            }
        }
        return new ChaosAudit(dirs.size(), completed, rows, lines, lost, duplicated, attempts, resumed, retrained);
    }
}
