package org.gridrun.reports.paper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.analysis.Curves;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.reports.ChartFiles;

/**
 * Regenerates a spec's figures and tables from the store: each figure as {@code <name>.png} and {@code <name>.svg},
 * each table as {@code <name>.md}, {@code <name>.csv} and {@code <name>.tex}, all in one folder.
 *
 * <p>A line is the mean over seeds (at the steps every seed logged) of the matched experiments' metric. Missing
 * data never fails the run and never passes silently: a series without experiments or without the metric is a
 * warning naming the spec file, line and series, and a figure left with no line at all is not written (an older
 * file of that name is removed).
 */
public final class PaperFigures {
    private final ResultsStore store;
    private final PaperSpec spec;
    private final Path dir;
    private final Warnings warnings;
    private final List<Path> files = new ArrayList<>();
    private final List<PaperTable> tables = new ArrayList<>();

    private PaperFigures(ResultsStore store, PaperSpec spec, Path dir) {
        this.store = store;
        this.spec = spec;
        this.dir = dir;
        this.warnings = new Warnings(spec.file());
    }

    /** Writes every figure and table of {@code spec} under {@code dir}, which is created if needed. */
    public static PaperResult write(ResultsStore store, PaperSpec spec, Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        PaperFigures figures = new PaperFigures(store, spec, dir);
        spec.figures().forEach(figures::figure);
        TableBuilder builder = new TableBuilder(store, spec.last(), figures.warnings);
        spec.tables().forEach(t -> figures.table(builder.build(t)));
        return new PaperResult(figures.files, figures.tables, figures.warnings.all());
    }

    private void figure(FigureSpec figure) {
        String what = "figure '" + figure.name() + "'";
        List<StoredExperiment> experiments = SeriesMatch.experiments(store, figure.source());
        LineFigure chart = new LineFigure(figure);
        List<StoredExperiment> drawn = new ArrayList<>();
        for (SeriesSpec series : figure.series()) {
            List<StoredExperiment> matched = SeriesMatch.of(series, experiments);
            List<MetricRecord> curve = chart.plottable(meanCurve(matched, figure.metric()));
            if (matched.isEmpty()) {
                warnings.add(what, series, TableBuilder.noExperiment(series, figure.source()));
            } else if (curve.isEmpty()) {
                warnings.add(what, series, matched.size() + " experiment(s) match but none has plottable '"
                        + figure.metric() + "' records" + (figure.logY() ? " (a log axis needs values above 0)" : "")
                        + "; left out");
            } else {
                chart.add(series, curve);
                drawn.addAll(matched);
            }
        }
        if (!chart.hasLines()) {
            warnings.add(what, figure.line(), "no series has data; figure not written");
            ChartFiles.remove(dir, figure.name());
        } else {
            List<Long> drops = figure.lrDrops() != null ? figure.lrDrops() : LrDrops.of(drawn);
            files.addAll(ChartFiles.writePngAndSvg(chart.finish(drops), dir, figure.name()));
        }
        if (figure.table()) {
            table(new TableBuilder(store, spec.last(), warnings).build(tableOf(figure), what));
        }
    }

    /** A figure's table: per series, mean ± sd over seeds of each run's mean of the last evaluations. */
    private TableSpec tableOf(FigureSpec figure) {
        ColumnSpec column = new ColumnSpec(figure.yLabel() + " (mean of last " + spec.last() + ")",
                List.of(figure.metric()), ColumnSpec.Stat.LAST, 1, false, -1);
        return new TableSpec(figure.name(), figure.title() + ": mean ± sd over seeds of the mean of the last "
                + spec.last() + " evaluations", figure.source(), figure.series(), List.of(column), 0, figure.line());
    }

    private List<MetricRecord> meanCurve(List<StoredExperiment> experiments, String metric) {
        return Curves.meanOverSeeds(store.nonEmptySeries(experiments, metric));
    }

    private void table(PaperTable table) {
        tables.add(table);
        files.add(text(table.name() + ".md", TableFormats.markdown(table)));
        files.add(text(table.name() + ".csv", TableFormats.csv(table)));
        files.add(text(table.name() + ".tex", TableFormats.latex(table)));
    }

    private Path text(String name, String content) {
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }
}
