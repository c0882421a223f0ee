package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class GridReportTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final double[][] FINAL_VACC = {{0.91, 0.93}, {0.955, 0.962}};

    @TempDir
    Path tmp;

    @Test
    void writesPageAndFiguresForTwoGroupsOfTwoSeeds() throws Exception {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            ingestTwoGroups(store, "nuq");
            ReportResult result = GridReport.write(store, "nuq", "r1", tmp.resolve("report"));
            assertEquals(4, result.experiments());
            assertEquals(2, result.groups());
            assertEquals(4, result.figures().size());
            for (Path figure : result.figures()) {
                assertTrue(Files.size(figure) > 0, figure + " is empty");
            }
            Path figures = tmp.resolve("report/figures");
            for (String metric : List.of("loss", "Vacc")) {
                assertPng(figures.resolve(metric + ".png"));
                assertSvg(figures.resolve(metric + ".svg"));
            }
            String html = Files.readString(result.index(), StandardCharsets.UTF_8);
            assertTrue(html.contains("<title>gridrun — nuq</title>"), html);
            assertTrue(html.contains("<td>method=qsgd, bits=4</td>"), html);
            assertTrue(html.contains("<td>method=none</td>"), html);
            assertTrue(html.contains("<td>" + meanStdPercent(FINAL_VACC[0]) + "</td>"), html);
            assertTrue(html.contains("<td>" + meanStdPercent(FINAL_VACC[1]) + "</td>"), html);
            assertTrue(html.contains("<td>203.5 kbit</td>"), html);
            assertTrue(html.contains("<td>3.2 Mbit</td>"), html);
            assertTrue(html.contains("<td>32 (float)</td>"), html);
            assertTrue(html.contains("<td>8.00</td>"), html);
            assertTrue(html.contains("<li>COMPLETED: 4</li>"), html);
            assertFalse(html.contains("<script"), html);
            assertImagesExist(html, tmp.resolve("report"));
            String[] table = result.table().split("\n");
            assertEquals(3, table.length, result.table());
            assertTrue(table[0].startsWith("experiment"), result.table());
            assertTrue(result.table().contains(meanStdPercent(FINAL_VACC[0]) + " %"), result.table());
            assertTrue(result.table().contains(meanStdPercent(FINAL_VACC[1]) + " %"), result.table());
            assertTrue(result.table().contains("203.5 kbit") && result.table().contains("3.2 Mbit"), result.table());
        }
    }

    @Test
    void anEmptyGridSaysThereAreNoResultsYet() throws IOException {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            ReportResult result = GridReport.write(store, "nothing", null, tmp.resolve("report"));
            assertEquals(0, result.experiments());
            assertEquals(List.of(), result.figures());
            assertEquals("", result.table());
            String html = Files.readString(result.index());
            assertTrue(html.contains(HtmlPage.NO_RESULTS), html);
            assertFalse(html.contains("<img"), html);
        }
    }

    @Test
    void experimentsWithoutMetricsAppearWithTheirStateAndNoFigure() throws IOException {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            ExperimentRecord e = experiment("g<&>", "queued_one", "qsgd", 4, 1);
            store.recordState(e, null, new StatusEntry(RunState.QUEUED, Instant.now(), "login", "job 3"));
            ReportResult result = GridReport.write(store, "g<&>", null, tmp.resolve("report"));
            String html = Files.readString(result.index());
            assertTrue(html.contains("<td>queued_one</td><td>QUEUED</td>"), html);
            assertTrue(html.contains(HtmlPage.NO_METRICS), html);
            assertTrue(html.contains("<h1>gridrun — g&lt;&amp;&gt;</h1>"), html);
            assertFalse(Files.exists(tmp.resolve("report/figures/loss.png")));
        }
    }

    /** Two groups (qsgd 4 bits, none) of two seeds each, completed, with loss, Vacc, bits and ratio. */
    private void ingestTwoGroups(ResultsStore store, String grid) {
        String[] methods = {"qsgd", "none"};
        for (int g = 0; g < 2; g++) {
            for (int seed = 0; seed < 2; seed++) {
                ExperimentRecord e = experiment(grid, methods[g] + "_seed" + seed, methods[g], 4, seed);
                RunDir dir = RunDir.at(tmp.resolve("runs").resolve(e.name()));
                dir.writeExperiment(e);
                dir.status().append(RunState.RUNNING, "");
                writeSpool(dir, g, seed);
                dir.status().append(RunState.COMPLETED, "");
                store.ingest(dir);
            }
        }
    }

    private static void writeSpool(RunDir dir, int group, int seed) {
        double bits = group == 0 ? 203_500 : 3_200_000;
        double ratio = group == 0 ? 8 : 1;
        try (MetricSpool.Writer out = MetricSpool.append(dir.metricsFile())) {
            for (int step = 0; step < 20; step++) {
                out.write(new MetricRecord("loss", step, 2.0 / (step + 1) + 0.01 * seed, 0));
                out.write(new MetricRecord("bits", step, bits, 0));
                out.write(new MetricRecord("ratio", step, ratio, 0));
                if (step % 5 == 4) {
                    double v = FINAL_VACC[group][seed] * (step + 1) / 20.0;
                    out.write(new MetricRecord("Vacc", step, v, 0));
                    out.write(new MetricRecord("Vloss", step, 1.0 / (step + 1), 0));
                }
            }
        }
    }

    private static ExperimentRecord experiment(String grid, String name, String method, long bits, long seed) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("method", method);
        if (!method.equals("none")) {
            params.put("bits", bits);
        }
        params.put("seed", seed);
        return new ExperimentRecord(grid, "r1", name, "id-" + name, params, params);
    }

    /** The oracle: mean ± sample std in percent, computed here without the code under test. */
    private static String meanStdPercent(double[] values) {
        double mean = (values[0] + values[1]) / 2;
        double std = Math.abs(values[0] - values[1]) / Math.sqrt(2);
        return String.format(Locale.ROOT, "%.2f ± %.2f", 100 * mean, 100 * std);
    }

    private static void assertPng(Path file) throws IOException {
        byte[] head = new byte[PNG_MAGIC.length];
        try (InputStream in = Files.newInputStream(file)) {
            assertEquals(head.length, in.read(head));
        }
        assertArrayEquals(PNG_MAGIC, head, file.toString());
    }

    private static void assertSvg(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document doc = factory.newDocumentBuilder().parse(file.toFile());
        assertEquals("svg", doc.getDocumentElement().getNodeName());
    }

    private static void assertImagesExist(String html, Path root) {
        Matcher m = Pattern.compile("(?:src|href)=\"(figures/[^\"]+)\"").matcher(html);
        List<String> refs = new ArrayList<>();
        while (m.find()) {
            refs.add(m.group(1));
        }
        assertEquals(List.of("figures/loss.png", "figures/loss.svg", "figures/Vacc.png", "figures/Vacc.svg"), refs);
        refs.forEach(ref -> assertTrue(Files.isRegularFile(root.resolve(ref)), ref));
    }
}
