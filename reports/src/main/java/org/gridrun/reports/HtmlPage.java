package org.gridrun.reports;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders the report's {@code index.html}: a static, offline page with inline CSS and no scripts.
 *
 * <p>Every text that comes from the store is escaped.
 */
final class HtmlPage {
    static final String NO_RESULTS = "no results yet";
    static final String NO_METRICS = "no metrics yet";
    private static final String CSS = """
            body { font-family: sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; margin-bottom: 2em; }
            th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; }
            th { background: #f0f0f0; }
            ul.states { list-style: none; padding: 0; display: flex; gap: 1.5em; }
            figure { margin: 0 0 2em 0; }
            img { max-width: 100%; border: 1px solid #eee; }
            .meta, .empty { color: #666; }
            """;
    private static final List<String> GROUP_HEADER = List.of("group", "method", "bits", "seeds",
            "final test accuracy (%)", "bits sent per step", "compression ratio", "state");
    private static final List<String> EXPERIMENT_HEADER = List.of("name", "state", "final Vacc (%)",
            "final Vloss", "id");

    private HtmlPage() {
    }

    /** The page of {@code model}. */
    static String render(ReportModel model) {
        String title = "gridrun — " + model.grid();
        StringBuilder out = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append(Html.element("title", title)).append("\n<style>\n").append(CSS).append("</style>\n</head>\n")
                .append("<body>\n").append(Html.element("h1", title)).append('\n');
        out.append("<p class=\"meta\">").append(Html.escape(scope(model))).append("</p>\n");
        if (model.experiments().isEmpty()) {
            out.append("<p class=\"empty\">").append(NO_RESULTS).append("</p>\n");
        } else {
            states(out, model);
            out.append(Html.element("h2", "Groups")).append('\n')
                    .append(Html.table("groups", GROUP_HEADER, groupRows(model)));
            out.append(Html.element("h2", "Experiments")).append('\n')
                    .append(Html.table("experiments", EXPERIMENT_HEADER, experimentRows(model)));
            figures(out, model);
        }
        return out.append("</body>\n</html>\n").toString();
    }

    private static String scope(ReportModel model) {
        String run = model.run() == null ? "all runs" : "run " + model.run();
        return run + " · " + model.experiments().size() + " experiments in " + model.groups().size() + " groups";
    }

    private static void states(StringBuilder out, ReportModel model) {
        out.append(Html.element("h2", "States")).append("\n<ul class=\"states\">\n");
        model.states().forEach((state, n) -> out.append(Html.element("li", state + ": " + n)).append('\n'));
        if (model.unrecorded() > 0) {
            out.append(Html.element("li", GroupRow.NO_STATE + ": " + model.unrecorded())).append('\n');
        }
        out.append("</ul>\n");
    }

    private static List<List<String>> groupRows(ReportModel model) {
        List<List<String>> rows = new ArrayList<>();
        for (GroupRow row : model.groups()) {
            rows.add(List.of(row.group().label(), row.method(), row.bits(), String.valueOf(row.group().seeds()),
                    Formats.meanStd(row.accuracy(), ReportModel.PERCENT), Formats.bits(row.bitsSent().mean()),
                    Formats.fixed(row.ratio().mean(), 2), row.state()));
        }
        return rows;
    }

    private static List<List<String>> experimentRows(ReportModel model) {
        List<List<String>> rows = new ArrayList<>();
        for (ExperimentFacts facts : model.experiments()) {
            rows.add(List.of(facts.experiment().name(), GroupRow.state(facts.experiment().state()),
                    Formats.fixed(facts.finalVacc() * ReportModel.PERCENT, 2), Formats.fixed(facts.finalVloss(), 4),
                    facts.experiment().id()));
        }
        return rows;
    }

    private static void figures(StringBuilder out, ReportModel model) {
        out.append(Html.element("h2", "Figures")).append('\n');
        if (model.figures().isEmpty()) {
            out.append("<p class=\"empty\">").append(NO_METRICS).append("</p>\n");
        }
        for (Figures.Spec spec : model.figures()) {
            String base = GridReport.FIGURES_DIR + "/" + Html.escape(spec.metric());
            out.append("<figure>\n<img src=\"").append(base).append(".png\" alt=\"").append(Html.escape(spec.yAxis()))
                    .append("\">\n<figcaption>").append(Html.escape(spec.yAxis())).append(" · <a href=\"")
                    .append(base).append(".svg\">SVG</a></figcaption>\n</figure>\n");
        }
    }
}
