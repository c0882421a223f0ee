package org.gridrun.reports;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.gridrun.analysis.Attempt;
import org.gridrun.analysis.RunSummary;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.StatusEntry;

/**
 * Renders {@code experiments/<name>.html}: the experiment's params and resolved config, its state history and
 * attempts, the tail of its log, the summary of each metric and a small figure of each.
 *
 * <p>The state history and the log come from the run directory the store recorded; an experiment whose directory is
 * gone still gets its page, which says so.
 */
final class ExperimentPage {
    static final String NO_LOG = "no log";
    static final String NO_FIGURES = "no figures of this experiment were drawn; see the comparison pages";
    private static final List<String> METRIC_HEADER = List.of("metric", "records", "last step", "last", "min", "max",
            "mean of last " + ExperimentSummary.LAST_K);

    private ExperimentPage() {
    }

    /**
     * The page of {@code summary}; {@code figures} maps each metric with a figure to its file base, relative to the
     * page.
     */
    static String render(ExperimentSummary summary, List<Attempt> attempts, Map<String, String> figures) {
        StoredExperiment e = summary.experiment();
        StringBuilder body = new StringBuilder("<p><a href=\"../index.html\">← ").append(Html.escape(e.grid()))
                .append("</a></p>\n");
        body.append(Html.table("facts", List.of("grid", "run", "id", "state", "host", "job", "run directory"),
                List.of(List.of(e.grid(), e.run(), e.id(), GroupRow.state(e.state()), text(e.host()), text(e.job()),
                        e.runDir() == null ? "" : e.runDir().toString()))));
        body.append(Html.element("h2", "Params")).append('\n').append(keyValues(e.params()));
        body.append(Html.element("h2", "Metrics")).append('\n').append(Html.table("metrics", METRIC_HEADER,
                metricRows(summary.metrics())));
        figures.forEach((metric, base) -> body.append(SitePage.figure(base, metric)));
        if (figures.isEmpty() && !summary.metrics().isEmpty()) {
            body.append("<p class=\"empty\">").append(NO_FIGURES).append("</p>\n");
        }
        body.append(Html.element("h2", "State history")).append('\n').append(history(e.runDir()));
        body.append(Html.element("h2", "Attempts")).append('\n').append(attempts(attempts));
        body.append(Html.element("h2", "Log (last " + LogTail.LINES + " lines)")).append('\n').append(log(e.runDir()));
        body.append(Html.element("h2", "Resolved config")).append('\n').append(keyValues(e.config()));
        return SitePage.render(e.name(), body.toString(), false, "../");
    }

    private static String keyValues(Map<String, Object> values) {
        List<List<String>> rows = new ArrayList<>();
        values.forEach((k, v) -> rows.add(List.of(k, Objects.toString(v))));
        return Html.table("config", List.of("key", "value"), rows);
    }

    private static List<List<String>> metricRows(Map<String, RunSummary> metrics) {
        List<List<String>> rows = new ArrayList<>();
        metrics.forEach((name, s) -> rows.add(List.of(name, String.valueOf(s.count()), String.valueOf(s.lastStep()),
                Formats.number(s.last()), Formats.number(s.min()), Formats.number(s.max()),
                Formats.number(s.lastK()))));
        return rows;
    }

    private static String history(Path runDir) {
        if (runDir == null || !Files.isDirectory(runDir)) {
            return "<p class=\"empty\">the run directory is not on this machine</p>\n";
        }
        List<List<String>> rows = new ArrayList<>();
        for (StatusEntry s : RunDir.at(runDir).status().history()) {
            rows.add(List.of(s.state().name(), s.time().toString(), s.host(), s.job(), s.detail()));
        }
        return Html.table("history", List.of("state", "time", "host", "job", "detail"), rows);
    }

    private static String attempts(List<Attempt> attempts) {
        List<List<String>> rows = new ArrayList<>();
        for (Attempt a : attempts) {
            rows.add(List.of(String.valueOf(a.number()), GroupRow.state(a.state()), text(a.host()), text(a.job()),
                    text(a.started()), text(a.ended()), text(a.exitCode()), text(a.backend()), text(a.failTrace())));
        }
        return Html.table("attempts", List.of("attempt", "state", "host", "job", "started", "ended", "exit",
                "backend", "failure"), rows);
    }

    private static String log(Path runDir) {
        List<String> lines = runDir == null ? List.of() : LogTail.read(RunDir.at(runDir).logFile(), LogTail.LINES);
        if (lines.isEmpty()) {
            return "<p class=\"empty\">" + NO_LOG + "</p>\n";
        }
        return "<pre class=\"log\">" + Html.escape(String.join("\n", lines)) + "</pre>\n";
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }
}
