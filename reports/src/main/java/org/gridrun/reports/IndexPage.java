package org.gridrun.reports;

import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.train.Headline;

/**
 * Renders the site's {@code index.html}: first the comparison a researcher came for (per seed group, final test
 * accuracy and gradient variance, mean ± sd, the best in bold: {@link MethodTable}) and the comparison figures of
 * training loss, test accuracy and gradient variance; then counts per state, the sortable and filterable table of
 * experiments, and links to every comparison page.
 *
 * <p>Every text that comes from the store is escaped.
 */
final class IndexPage {
    static final String NO_RESULTS = "no results yet";
    static final String NO_METRICS = "no metrics yet";
    /** The metrics whose comparison figures the index shows, when recorded. */
    static final List<String> HEADLINE = List.of("est_var", "Vacc", "Vppl", "loss");

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
            return SitePage.render(title(model), body.toString(), false, "");
        }
        body.append(Html.element("h2", "Comparison")).append('\n').append(MethodTable.render(model.groups()));
        headlines(body, model);
        states(body, model, experiments);
        body.append(Html.element("h2", "Experiments")).append('\n')
                .append(SortableTable.render("experiments", model.experiments().header(), model.experiments().rows()))
                .append("<p><a href=\"index.csv\">CSV</a></p>\n");
        comparisons(body, model);
        return SitePage.render(title(model), body.toString(), true, "");
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
    }

    private static void headlines(StringBuilder out, Model model) {
        // Language models' next-token accuracy is drawn on its comparison page, not among their headlines.
        boolean languageOnly = !model.groups().isEmpty()
                && model.groups().stream().allMatch(g -> g.headline() == Headline.PERPLEXITY);
        for (String metric : HEADLINE) {
            if (model.drawn().contains(metric) && !(languageOnly && metric.equals(Headline.ACCURACY.metric()))) {
                out.append(SitePage.figure(CompareWriter.DIR + "/" + model.comparisons().get(metric),
                        metric + ": mean over seeds (a 95% CI band from 3 seeds)"));
            }
        }
    }
}
