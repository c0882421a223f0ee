package org.gridrun.reports.paper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridrun.engine.run.BadFileException;

/**
 * Reads a figure spec file (docs/figures.md) into a {@link PaperSpec}, reporting every problem at once as
 * {@code file:line:col: message} in a {@link SpecException}.
 */
public final class SpecReader {
    static final Set<String> TOP = Set.of("grid", "last", "series_sets", "figures", "tables");
    static final Set<String> FIGURE = Set.of("name", "title", "grid", "run", "runs", "metric", "y_label", "log_y",
            "y_limits", "lr_drops", "series", "table");
    static final Set<String> TABLE = Set.of("name", "title", "grid", "run", "runs", "rows", "columns", "train_size");

    private final SpecProblems problems;
    private final Map<String, List<SeriesSpec>> sets = new HashMap<>();
    private final SeriesReader seriesReader;
    private String grid;

    private SpecReader(SpecProblems problems) {
        this.problems = problems;
        this.seriesReader = new SeriesReader(problems);
    }

    /** Reads {@code file}; messages name it as {@code shown} (for example relative to the working directory). */
    public static PaperSpec load(Path file, String shown) {
        String text;
        try {
            text = BadFileException.utf8(Path.of(shown), Files.readAllBytes(file), "save the spec as UTF-8 text");
        } catch (NoSuchFileException e) {
            throw new SpecException(List.of(shown + ": no such spec file"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read spec " + shown + ": " + e.getMessage(), e);
        }
        String name = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        return parse(text, shown, name);
    }

    /** Parses the text of a spec file named {@code shown}, whose output folder is named {@code name}. */
    public static PaperSpec parse(String text, String shown, String name) {
        SpecProblems problems = new SpecProblems(shown);
        SpecNode root = SpecTreeReader.read(text, problems);
        if (root == null) {
            problems.add(1, 1, "the spec is empty or unreadable; it needs 'figures:' or 'tables:'");
            problems.throwIfAny();
        }
        PaperSpec spec = new SpecReader(problems).top(root, shown, name);
        problems.throwIfAny();
        return spec;
    }

    private PaperSpec top(SpecNode root, String shown, String name) {
        SpecFields top = SpecFields.of(root, "a spec file", TOP, problems).orElse(null);
        if (top == null) {
            return new PaperSpec(shown, name, 5, List.of(), List.of());
        }
        grid = top.optionalString("grid").orElse(null);
        int last = top.integer("last", 5, 1);
        top.get("series_sets").ifPresent(this::seriesSets);
        List<FigureSpec> figures = new ArrayList<>();
        items(top, "figures").forEach(n -> SpecFields.of(n, "a figure", FIGURE, problems)
                .ifPresent(f -> figures.add(figure(f))));
        List<TableSpec> tables = new ArrayList<>();
        items(top, "tables").forEach(n -> SpecFields.of(n, "a table", TABLE, problems)
                .ifPresent(t -> tables.add(table(t))));
        if (figures.isEmpty() && tables.isEmpty()) {
            problems.add(root, "the spec has no figure and no table; add 'figures:' or 'tables:'");
        }
        return new PaperSpec(shown, name, last, figures, tables);
    }

    private void seriesSets(SpecNode node) {
        if (!(node instanceof SpecNode.MapNode map)) {
            problems.add(node, "series_sets must map names to lists of series, found " + node.describe());
            return;
        }
        map.entries().forEach((setName, list) -> sets.put(setName, seriesReader.list(list, setName)));
    }

    private List<SpecNode> items(SpecFields fields, String key) {
        return fields.get(key).map(node -> {
            if (node instanceof SpecNode.ListNode list) {
                return list.items();
            }
            problems.add(node, key + " must be a list, found " + node.describe());
            return List.<SpecNode>of();
        }).orElse(List.of());
    }

    private FigureSpec figure(SpecFields f) {
        String name = f.string("name");
        String metric = f.string("metric");
        List<Double> limits = f.numbers("y_limits");
        if (limits != null && (limits.size() != 2 || !(limits.get(0) < limits.get(1)))) {
            problems.add(f.get("y_limits").orElseThrow(), "y_limits must be [min, max] with min < max, found "
                    + limits);
        }
        boolean logY = f.bool("log_y", false);
        if (logY && limits != null && limits.size() == 2 && !(limits.get(0) > 0)) {
            problems.add(f.get("y_limits").orElseThrow(), "a log y axis needs y_limits above 0, found " + limits);
        }
        List<Double> drops = f.numbers("lr_drops");
        return new FigureSpec(name, f.optionalString("title").orElse(name), source(f), metric,
                f.optionalString("y_label").orElse(metric), logY,
                limits == null || limits.size() != 2 ? null : new double[] {limits.get(0), limits.get(1)},
                drops == null ? null : drops.stream().map(Double::longValue).toList(), series(f, "series"),
                f.bool("table", false), f.node().line());
    }

    private TableSpec table(SpecFields t) {
        List<ColumnSpec> columns = new ArrayList<>();
        t.get("columns").ifPresentOrElse(node -> columns.addAll(new ColumnReader(problems).list(node)),
                () -> problems.add(t.node(), "a table needs 'columns'"));
        int trainSize = t.integer("train_size", 0, 0);
        if (trainSize == 0 && columns.stream().anyMatch(ColumnSpec::perEpoch)) {
            problems.add(t.node(), "a table with a per_epoch column needs 'train_size' (training examples per epoch)");
        }
        String name = t.string("name");
        return new TableSpec(name, t.optionalString("title").orElse(name), source(t), series(t, "rows"), columns,
                trainSize, t.node().line());
    }

    private SourceSpec source(SpecFields f) {
        String g = f.optionalString("grid").orElse(grid);
        if (g == null) {
            problems.add(f.node(), "no grid: give 'grid' here or at the top of the spec");
        }
        List<String> runs = new ArrayList<>(f.strings("run"));
        runs.addAll(f.strings("runs"));
        if (runs.isEmpty()) {
            problems.add(f.node(), "give the grid's run(s) with 'run' or 'runs'");
        }
        return new SourceSpec(g == null ? "" : g, runs);
    }

    private List<SeriesSpec> series(SpecFields f, String key) {
        SpecNode node = f.get(key).orElse(null);
        if (node == null) {
            problems.add(f.node(), "needs '" + key + "': a list of series or the name of one of series_sets");
            return List.of();
        }
        if (node instanceof SpecNode.Scalar s && s.text() != null) {
            List<SeriesSpec> set = sets.get(s.text());
            if (set == null) {
                problems.add(node, "no series set '" + s.text() + "' (series_sets has: "
                        + String.join(", ", sets.keySet().stream().sorted().toList()) + ")");
                return List.of();
            }
            return set;
        }
        return seriesReader.list(node, key);
    }
}
