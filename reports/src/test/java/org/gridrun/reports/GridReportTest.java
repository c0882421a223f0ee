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
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.SeedSummary;
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
    private static final List<String> METRICS = List.of("Vacc", "Vloss", "bits", "loss", "ratio");

    @TempDir
    Path tmp;

    @Test
    void writesIndexExperimentPagesAndComparisons() throws Exception {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            SiteFixture.ingest(store, tmp.resolve("runs"), 0, 1, 2);
            Path site = tmp.resolve("report");
            ReportResult result = GridReport.write(store, SiteFixture.GRID, null, site);
            assertEquals(6, result.experiments());
            assertEquals(3, result.groups());
            assertEquals(METRICS.size(), result.comparisons());
            for (String metric : METRICS) {
                for (String ext : List.of("html", "csv", "tex")) {
                    assertTrue(Files.isRegularFile(site.resolve("compare/" + metric + "." + ext)), metric + ext);
                }
                assertPng(site.resolve("compare/" + metric + ".png"));
                assertSvg(site.resolve("compare/" + metric + ".svg"));
            }
            String index = Files.readString(result.index(), StandardCharsets.UTF_8);
            assertTrue(index.contains("<li>COMPLETED: 5</li>") && index.contains("<li>DIVERGED: 1</li>"), index);
            assertTrue(result.table().lines().findFirst().orElseThrow().endsWith("state"), result.table());
            assertTrue(result.table().lines().anyMatch(line -> line.endsWith("COMPLETED, 1 DIVERGED")),
                    "the console's table marks the group holding the diverged experiment:\n" + result.table());
            assertTrue(index.contains("<th title=\"sort\">loss mean5</th>"), index);
            assertTrue(index.contains("<a href=\"experiments/topk_seed1.html\">topk_seed1</a>"), index);
            assertTrue(index.contains("<a href=\"compare/Vacc.html\">Vacc</a>"), index);
            assertTrue(index.contains("<script>") && index.split("<script src", -1).length == 2
                    && index.contains("<script src=\"live.js\">"), "the table script is inline; live.js the one file");
            assertTrue(Files.readString(site.resolve("live.js")).contains("\"refresh\":0"), "not running: no reload");
            assertFalse(index.contains("http://") || index.contains("https://"), "nothing is fetched from the web");
            try (Stream<Path> files = Files.walk(site)) {
                for (Path page : files.filter(p -> p.toString().endsWith(".html")).toList()) {
                    assertLinksResolve(page);
                }
            }
        }
    }

    @Test
    void theIndexOpensWithTheComparisonBestInBoldAndTheDivergedRunMarked() throws Exception {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            SiteFixture.ingest(store, tmp.resolve("runs"), 0, 1, 2);
            GridReport.write(store, SiteFixture.GRID, null, tmp.resolve("report"));
        }
        String index = Files.readString(tmp.resolve("report/index.html"));
        assertTrue(index.indexOf("<table class=\"methods\">") < index.indexOf("id=\"experiments\""),
                "the comparison comes before the experiments' table");
        // the fixture's final accuracies: (0.6 + 0.1 method + 0.02 seed); topk's diverged seed stops at step 9, so
        // none (method 1) is best
        String best = Formats.fixed(100 * (SiteFixture.vacc(1, 0, 19) + SiteFixture.vacc(1, 1, 19)) / 2, 2);
        Matcher bold = Pattern.compile("<strong>([^<]*)</strong>").matcher(index);
        assertTrue(bold.find(), index);
        assertTrue(bold.group(1).startsWith(best + " ± "), "bold: " + bold.group(1) + ", expected " + best);
        Matcher row = Pattern.compile("<tr><td>[^<]*topk[^<]*</td>.*?</tr>").matcher(index);
        assertTrue(row.find(), index);
        assertTrue(row.group().contains("<span class=\"mark\">1 DIVERGED</span>"), row.group());
        assertEquals(1, index.split("<strong>", -1).length - 1, "one best: no group measured est_var here");
    }

    @Test
    void languageModelsAreJudgedByPerplexityTheLowestInBold() throws Exception {
        double[][] perplexities = {{142.0, 146.0}, {121.5, 124.5}};
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            for (int g = 0; g < 2; g++) {
                for (int seed = 0; seed < 2; seed++) {
                    String method = g == 0 ? "powersgd" : "none";
                    Map<String, Object> params = new LinkedHashMap<>();
                    params.put("method", method);
                    params.put("seed", (long) seed);
                    String name = SiteFixture.name(method, seed);
                    ExperimentRecord e = new ExperimentRecord("lm", "r1", name, "id-" + name, params, params);
                    RunDir dir = RunDir.at(tmp.resolve("runs/" + name));
                    dir.writeExperiment(e);
                    try (MetricSpool.Writer out = MetricSpool.append(dir.metricsFile())) {
                        // a next-token accuracy that would pick the other method if it were the headline
                        out.write(new MetricRecord("Vacc", 10, g == 0 ? 0.3 : 0.2, 1));
                        out.write(new MetricRecord("Vppl", 10, perplexities[g][seed], 1));
                    }
                    dir.status().append(RunState.COMPLETED, "");
                    store.ingest(dir);
                }
            }
            ReportResult result = GridReport.write(store, "lm", null, tmp.resolve("report"));
            assertTrue(result.table().lines().findFirst().orElseThrow().contains("test perplexity"), result.table());
            assertTrue(result.table().contains("123.00 ± 2.12  "), result.table());
        }
        String index = Files.readString(tmp.resolve("report/index.html"));
        assertTrue(index.contains("<th>final test perplexity</th>"), index);
        assertFalse(index.contains("final test accuracy"), index);
        Matcher bold = Pattern.compile("<strong>([^<]*)</strong>").matcher(index);
        assertTrue(bold.find(), index);
        assertEquals("123.00 ± 2.12", bold.group(1), "the lowest mean perplexity is the best");
        assertTrue(index.contains("Vppl: mean over seeds") && !index.contains("Vacc: mean over seeds"), index);
    }

    @Test
    void theDivergedExperimentsPageShowsItsStateNanAndEscapedLogTail() throws IOException {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            SiteFixture.ingest(store, tmp.resolve("runs"), 2);
            GridReport.write(store, SiteFixture.GRID, "r1", tmp.resolve("report"));
            String page = Files.readString(tmp.resolve("report/experiments/topk_seed1.html"));
            assertTrue(page.contains("<td>DIVERGED</td>"), page);
            assertTrue(page.contains("loss is NaN at step " + SiteFixture.DIVERGES_AT), page);
            assertTrue(page.contains("<td>loss</td><td>13</td><td>12</td><td>NaN</td>"), page);
            assertTrue(page.contains(Html.escape(SiteFixture.LOG_LINE)) && !page.contains(SiteFixture.LOG_LINE), page);
            assertTrue(page.contains("line 80") || page.contains(Html.escape(SiteFixture.LOG_LINE)), page);
            assertTrue(page.contains("line 31\n") && !page.contains("line 30\n"), "the last 50 lines of the log");
            assertTrue(page.contains("<td>local:7</td>"), page);
            assertTrue(page.contains("<img src=\"topk_seed1/loss.png\""), page);
        }
    }

    @Test
    void comparisonTablesHoldMeanAndStdOverSeedsOfTheLastFiveMean() throws IOException {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            SiteFixture.ingest(store, tmp.resolve("runs"), 0, 1, 2);
            GridReport.write(store, SiteFixture.GRID, null, tmp.resolve("report"));
            List<String> csv = Files.readAllLines(tmp.resolve("report/compare/Vacc.csv"));
            assertEquals("group,best,seeds,non-finite,mean,std,95% CI ±,Welch t vs best,Welch df,p vs best",
                    csv.get(0));
            assertEquals(4, csv.size(), String.join("\n", csv));
            String tex = Files.readString(tmp.resolve("report/compare/Vacc.tex"));
            int[] nameOrder = {1, 0, 2};
            double bestMean = Double.NEGATIVE_INFINITY;
            int best = -1;
            for (int row = 0; row < 3; row++) {
                int g = nameOrder[row];
                SeedSummary expected = SeedSummary.of(new double[] {lastFiveVacc(g, 0), lastFiveVacc(g, 1)});
                String[] cells = csv.get(row + 1).split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
                assertTrue(cells[0].contains("method=" + SiteFixture.METHODS[g]), csv.get(row + 1));
                assertEquals(expected.mean(), Double.parseDouble(cells[4]), 1e-12, csv.get(row + 1));
                assertEquals(expected.std(), Double.parseDouble(cells[5]), 1e-12, csv.get(row + 1));
                assertTrue(tex.contains(Formats.number(expected.mean()) + " \\pm " + Formats.number(expected.std())),
                        tex);
                if (expected.mean() > bestMean) {
                    bestMean = expected.mean();
                    best = row;
                }
            }
            assertEquals(ComparePage.BEST, csv.get(best + 1).split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)")[1],
                    "the highest accuracy is the best: " + csv);
            assertTrue(tex.contains("\\toprule") && tex.contains("method=qsgd, bits=4"), tex);
            assertTrue(tex.contains("\\mathbf"), "the best group is bold: " + tex);
            List<String> loss = Files.readAllLines(tmp.resolve("report/compare/loss.csv"));
            assertTrue(loss.get(3).contains(",2,1,"), "topk's diverged seed is counted as non-finite: " + loss);
        }
    }

    @Test
    void aSecondReportKeepsUnchangedFiguresRemovesStalePagesAndNothingElse() throws IOException {
        Path site = tmp.resolve("report");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/a"))) {
            SiteFixture.ingest(store, tmp.resolve("runs"), 0, 2);
            GridReport.write(store, SiteFixture.GRID, null, site);
            Files.writeString(site.resolve("notes.txt"), "mine");
            Path absolute = Files.writeString(tmp.resolve("absolute.txt"), "mine").toAbsolutePath();
            Files.writeString(tmp.resolve("outside.txt"), "mine");
            Files.writeString(site.resolve(SiteFiles.MANIFEST), "../outside.txt\n" + absolute + "\n",
                    java.nio.file.StandardOpenOption.APPEND);
            Files.writeString(site.resolve("compare/mine.tex"), "mine");
            Path figure = site.resolve("experiments/qsgd_seed0/loss.png");
            Files.setLastModifiedTime(figure, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
            ReportResult again = GridReport.write(store, SiteFixture.GRID, null, site);
            assertEquals(FileTime.from(Instant.parse("2020-01-01T00:00:00Z")), Files.getLastModifiedTime(figure),
                    "an unchanged experiment's figure is not drawn again");
            assertEquals(List.of(), again.removed());
        }
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/b"))) {
            SiteFixture.ingest(store, tmp.resolve("runs2"), 0);
            ReportResult result = GridReport.write(store, SiteFixture.GRID, null, site);
            assertTrue(result.removed().contains("experiments/topk_seed1.html"), result.removed().toString());
            assertFalse(Files.exists(site.resolve("experiments/topk_seed1")), "its figure folder goes too");
            assertTrue(Files.isRegularFile(site.resolve("experiments/qsgd_seed1.html")));
            assertEquals("mine", Files.readString(site.resolve("notes.txt")));
            assertEquals("mine", Files.readString(tmp.resolve("outside.txt")), "a manifest cannot reach outside");
            assertEquals("mine", Files.readString(tmp.resolve("absolute.txt")), "nor name an absolute path");
            assertEquals("mine", Files.readString(site.resolve("compare/mine.tex")));
        }
    }

    @Test
    void anEmptyGridSaysThereAreNoResultsYet() throws IOException {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            ReportResult result = GridReport.write(store, "nothing", null, tmp.resolve("report"));
            assertEquals(0, result.experiments());
            assertEquals("", result.table());
            String html = Files.readString(result.index());
            assertTrue(html.contains(IndexPage.NO_RESULTS), html);
            assertFalse(html.contains("<img"), html);
        }
    }

    @Test
    void experimentsWithoutMetricsAppearWithTheirStateAndNoFigure() throws IOException {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            ExperimentRecord e = new ExperimentRecord("g<&>", "r1", "queued_one", "id-q",
                    Map.of("method", "qsgd"), Map.of("method", "qsgd"));
            store.recordState(e, null, new StatusEntry(RunState.QUEUED, Instant.now(), "login", "job 3"));
            ReportResult result = GridReport.write(store, "g<&>", null, tmp.resolve("report"));
            String html = Files.readString(result.index());
            assertTrue(html.contains("queued_one</a></td><td>QUEUED</td>"), html);
            assertTrue(html.contains(IndexPage.NO_METRICS), html);
            assertTrue(html.contains("<h1>gridrun — g&lt;&amp;&gt;</h1>"), html);
            String page = Files.readString(tmp.resolve("report/experiments/queued_one.html"));
            assertTrue(page.contains(ExperimentPage.NO_LOG), page);
        }
    }

    /** The oracle: the mean of the last five Vacc values (every fifth step, at most four, fewer if diverged). */
    private static double lastFiveVacc(int method, int seed) {
        double sum = 0;
        int n = 0;
        int end = SiteFixture.diverges(method, seed) ? SiteFixture.DIVERGES_AT : SiteFixture.STEPS;
        for (int step = 4; step < end; step += 5) {
            sum += SiteFixture.vacc(method, seed, step);
            n++;
        }
        return sum / n;
    }

    private static void assertLinksResolve(Path page) throws IOException {
        String html = Files.readString(page);
        Matcher m = Pattern.compile("(?:src|href)=\"([^\"#]+)\"").matcher(html);
        List<String> refs = new ArrayList<>();
        while (m.find()) {
            refs.add(m.group(1).replace("&amp;", "&"));
        }
        for (String ref : refs) {
            assertTrue(Files.isRegularFile(page.getParent().resolve(ref)), page + " links to missing " + ref);
        }
        assertTrue(html.contains("<img") == refs.stream().anyMatch(r -> r.endsWith(".png")), page.toString());
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

}
