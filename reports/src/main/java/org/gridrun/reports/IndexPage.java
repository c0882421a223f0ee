package org.gridrun.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.RunState;

/**
 * Renders the site's {@code index.html}: counts per state, the seed groups, the sortable and filterable table of
 * experiments, links to every comparison page, and the comparison figures of training loss and test accuracy.
 *
 * <p>Every text that comes from the store is escaped.
 */
final class IndexPage {
    static final String NO_RESULTS = "no results yet";
    static final String NO_METRICS = "no metrics yet";
    /** The metrics whose comparison figures the index shows, when recorded. */
    static final List<String> HEADLINE = List.of("loss", "Vacc", "Vppl");
    private static final List<String> GROUP_HEADER = List.of("group", "method", "bits", "seeds",
            "final test accuracy (%)", "bits sent per step", "compression ratio", "state");

    /**
     * What the index shows.
     *
     * @param grid        the grid
     * @param run         the run, or null for every run
     * @param states      the count of experiments per recorded state
     * @param groups      the seed groups' rows
     * @param experiments the experiments' table
     * @param comparisons each compared metric and its pages' file name, in metric order
     * @param drawn       the metrics whose comparison figure was drawn
     */
    record Model(String grid, String run, Map<RunState, Integer> states, List<GroupRow> groups,
                 IndexTable experiments, Map<String, String> comparisons, List<String> drawn) {
    }

    private IndexPage() {
    }

    /** The page of {@code model}. */
    static String render(Model model) {
        int experiments = model.experiments().rows().size();
        StringBuilder body = new StringBuilder("<p class=\"meta\">").append(Html.escape(scope(model, experiments)))
                .append("</p>\n");
        if (experiments == 0) {
            body.append("<p class=\"empty\">").append(NO_RESULTS).append("</p>\n");
            return SitePage.render(title(model), body.toString(), false);
        }
        states(body, model, experiments);
        body.append(Html.element("h2", "Groups")).append('\n')
                .append(Html.table("groups", GROUP_HEADER, groupRows(model)));
        body.append(Html.element("h2", "Experiments")).append('\n')
                .append(SortableTable.render("experiments", model.experiments().header(), model.experiments().rows()))
                .append("<p><a href=\"index.csv\">CSV</a></p>\n");
        comparisons(body, model);
        return SitePage.render(title(model), body.toString(), true);
    }

    private static String title(Model model) {
        return "gridrun — " + model.grid();
    }

    private static String scope(Model model, int experiments) {
        String run = model.run() == null ? "all runs" : "run " + model.run();
        return run + " · " + experiments + " experiments in " + model.groups().size() + " groups";
    }

    private static void states(StringBuilder out, Model model, int experiments) {
        out.append(Html.element("h2", "States")).append("\n<ul class=\"states\">\n");
        model.states().forEach((state, n) -> out.append(Html.element("li", state + ": " + n)).append('\n'));
        int unrecorded = experiments - model.states().values().stream().mapToInt(Integer::intValue).sum();
        if (unrecorded > 0) {
            out.append(Html.element("li", GroupRow.NO_STATE + ": " + unrecorded)).append('\n');
        }
        out.append("</ul>\n");
    }

    private static List<List<String>> groupRows(Model model) {
        List<List<String>> rows = new ArrayList<>();
        for (GroupRow row : model.groups()) {
            rows.add(List.of(row.group().label(), row.method(), row.bits(), String.valueOf(row.group().seeds()),
                    Formats.meanStd(row.accuracy(), Formats.PERCENT), Formats.bits(row.bitsSent().mean()),
                    Formats.fixed(row.ratio().mean(), 2), row.state()));
        }
        return rows;
    }

    private static void comparisons(StringBuilder out, Model model) {
        out.append(Html.element("h2", "Comparisons")).append('\n');
        if (model.comparisons().isEmpty()) {
            out.append("<p class=\"empty\">").append(NO_METRICS).append("</p>\n");
            return;
        }
        out.append("<ul class=\"comparisons\">\n");
        model.comparisons().forEach((metric, slug) -> out.append("<li><a href=\"")
                .append(Html.escape(CompareWriter.DIR + "/" + slug + ".html")).append("\">").append(Html.escape(metric))
                .append("</a></li>\n"));
        out.append("</ul>\n");
        for (String metric : HEADLINE) {
            if (model.drawn().contains(metric)) {
                out.append(SitePage.figure(CompareWriter.DIR + "/" + model.comparisons().get(metric),
                        metric + ": mean ± 95% CI over seeds"));
            }
        }
    }
}
