package org.gridrun.reports.paper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecReaderTest {
    static final String GOOD = """
            grid: g
            last: 3
            series_sets:
              two:
                - {label: SGD, colour: '#000000', match: {method: none, ngpu: 1}}
                - {label: ALQ, colour: '#2ca02c', match: {method: alq}}
            figures:
              - name: est_var
                run: nuq
                metric: est_var
                log_y: true
                y_limits: [1.0e-4, 10]
                lr_drops: [350, 700]
                series: two
                table: true
              - name: acc
                runs: [a, b]
                grid: other
                metric: Vacc
                series:
                  - {label: X, color: '#ff0000', match: {rank: 2}}
            tables:
              - name: t
                run: p
                train_size: 600
                rows: two
                columns:
                  - {title: Acc, metric: Vacc, scale: 100}
                  - {metric: [compute_ms, encode_ms], stat: mean, per_epoch: true, decimals: 1}
            """;

    @Test
    void readsFiguresSeriesAndTablesInFileOrder() {
        PaperSpec spec = SpecReader.parse(GOOD, "figures/x.yaml", "x");
        assertEquals(3, spec.last());
        assertEquals(List.of("est_var", "acc"), spec.figures().stream().map(FigureSpec::name).toList());
        FigureSpec f = spec.figures().get(0);
        assertEquals(new SourceSpec("g", List.of("nuq")), f.source());
        assertTrue(f.logY());
        assertArrayEquals(new double[] {1e-4, 10}, f.yLimits());
        assertEquals(List.of(350L, 700L), f.lrDrops());
        assertEquals(List.of("SGD", "ALQ"), f.series().stream().map(SeriesSpec::label).toList());
        assertEquals(new Color(0x2c, 0xa0, 0x2c), f.series().get(1).colour());
        assertEquals(Map.of("method", "none", "ngpu", "1"), f.series().get(0).match());
        assertEquals(5, f.series().get(0).line());
        assertTrue(f.table());
        FigureSpec acc = spec.figures().get(1);
        assertEquals(new SourceSpec("other", List.of("a", "b")), acc.source());
        assertNull(acc.lrDrops());
        assertNull(acc.yLimits());
        assertFalse(acc.logY());
        TableSpec t = spec.tables().get(0);
        assertEquals(600, t.trainSize());
        assertEquals(2, t.columns().size());
        assertEquals(100, t.columns().get(0).scale());
        assertEquals(ColumnSpec.Stat.LAST, t.columns().get(0).stat());
        assertEquals(List.of("compute_ms", "encode_ms"), t.columns().get(1).metrics());
        assertEquals(ColumnSpec.Stat.MEAN, t.columns().get(1).stat());
        assertTrue(t.columns().get(1).perEpoch());
        assertEquals("compute_ms+encode_ms", t.columns().get(1).title());
    }

    @Test
    void everyProblemIsReportedAtItsFileLineAndColumn() {
        String bad = """
                grid: g
                figures:
                  - name: a
                    run: nuq
                    metric: est_var
                    log_y: maybe
                    y_limits: [5, 1]
                    colour: red
                    series:
                      - {label: A, colour: red, match: {method: alq}}
                      - {label: A, colour: '#000000', match: {method: amq}}
                      - {label: B, colour: '#000000'}
                  - name: b
                    metric: Vacc
                    series: nosuchset
                """;
        SpecException e = assertThrows(SpecException.class, () -> SpecReader.parse(bad, "figures/bad.yaml", "bad"));
        List<String> p = e.problems();
        assertTrue(p.contains("figures/bad.yaml:6:12: log_y must be true or false, found 'maybe'"), p.toString());
        assertTrue(p.contains("figures/bad.yaml:7:15: y_limits must be [min, max] with min < max, found [5.0, 1.0]"),
                p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("figures/bad.yaml:8:5: unknown field 'colour' in a figure")),
                p.toString());
        assertTrue(p.contains("figures/bad.yaml:10:28: colour must be #rrggbb, found 'red'"), p.toString());
        assertTrue(p.contains("figures/bad.yaml:11:9: series label 'A' is used twice in series"), p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("figures/bad.yaml:12:9: series 'B' needs 'match'")),
                p.toString());
        assertTrue(p.contains("figures/bad.yaml:13:5: give the grid's run(s) with 'run' or 'runs'"), p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("figures/bad.yaml:15:13: no series set 'nosuchset'")),
                p.toString());
        assertEquals(8, p.size(), p.toString());
    }

    @Test
    void malformedYamlAndAMissingGridAreProblemsToo() {
        SpecException syntax = assertThrows(SpecException.class,
                () -> SpecReader.parse("figures: [\n  {name: a", "f.yaml", "f"));
        assertTrue(syntax.getMessage().startsWith("f.yaml:"), syntax.getMessage());
        assertTrue(syntax.getMessage().contains("malformed YAML"), syntax.getMessage());
        SpecException noGrid = assertThrows(SpecException.class, () -> SpecReader.parse("""
                tables:
                  - name: t
                    run: r
                    rows: [{label: A, colour: '#000000', match: {m: 1}}]
                    columns: [{metric: bytes_sent, per_epoch: true}]
                """, "f.yaml", "f"));
        assertTrue(noGrid.problems().contains("f.yaml:2:5: no grid: give 'grid' here or at the top of the spec"),
                noGrid.problems().toString());
        assertTrue(noGrid.problems().contains("f.yaml:2:5: a table with a per_epoch column needs 'train_size' "
                + "(training examples per epoch)"), noGrid.problems().toString());
    }
}
