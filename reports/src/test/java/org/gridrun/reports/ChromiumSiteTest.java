package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunDir;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report site as a browser sees it: headless Chromium opens the index, an experiment page and a comparison page
 * from the file system, every image loads, the console shows no error, sorting and filtering the experiments work,
 * and a screenshot of the index is saved to {@code target/report-screenshot.png}.
 *
 * <p>Needs Debian's {@code chromium} (which {@code .ci/run} installs); without it the test is skipped and says so,
 * except where the environment variable {@code CI} is set, where a missing browser fails the build.
 */
class ChromiumSiteTest {
    private static final String NO_CHROMIUM =
            "no chromium on the PATH (apt-get install chromium): the report site is not checked in a browser";
    private static final String BROKEN_IMAGES =
            "[...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)";
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    private static String chromium;

    @TempDir
    Path tmp;

    @BeforeAll
    static void findChromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (chromium == null && Files.isExecutable(candidate)) {
                    chromium = candidate.toString();
                }
            }
        }
        if (chromium == null && System.getenv("CI") != null) {
            fail(NO_CHROMIUM + ", and CI is set, where this check must run");
        }
    }

    @Test
    void pagesLoadEveryImageWithoutConsoleErrorsAndTheTableSortsAndFilters() throws Exception {
        Assumptions.assumeTrue(chromium != null, NO_CHROMIUM);
        Path site = tmp.resolve("report");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            SiteFixture.ingest(store, tmp.resolve("runs"), 0, 1, 2);
            GridReport.write(store, SiteFixture.GRID, null, site);
        }
        try (DevTools browser = DevTools.launch(chromium, tmp.resolve("profile"))) {
            browser.call("Runtime.enable", Map.of());
            browser.call("Log.enable", Map.of());
            browser.call("Page.enable", Map.of());
            for (String page : List.of("experiments/topk_seed1.html", "compare/loss.html", "index.html")) {
                open(browser, site.resolve(page));
            }
            sortsByAClickedHeader(browser);
            filters(browser);
            byte[] png = Base64.getDecoder().decode(browser.call("Page.captureScreenshot", Map.of("format", "png"))
                    .path("data").asText());
            assertArrayEquals(PNG_MAGIC, Arrays.copyOf(png, PNG_MAGIC.length));
            Path screenshot = Files.createDirectories(Path.of("target")).resolve("report-screenshot.png");
            Files.write(screenshot, png);
        }
    }

    @Test
    void anOpenPageReloadsWhileTheGridRunsAndStopsOnceItEnds() throws Exception {
        Assumptions.assumeTrue(chromium != null, NO_CHROMIUM);
        Path site = tmp.resolve("report");
        Path runs = tmp.resolve("runs");
        String live = "document.getElementById('gridrun-live')";
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"));
             DevTools browser = DevTools.launch(chromium, tmp.resolve("profile"))) {
            SiteFixture.ingest(store, runs, 0);
            RunDir running = SiteFixture.startRunning(store, runs, 1, 0, 4);
            GridReport.write(store, SiteFixture.GRID, null, site, true, 1);
            browser.call("Page.enable", Map.of());
            open(browser, site.resolve("index.html"));
            assertTrue(browser.evaluate(live + ".textContent").asText().contains("1 experiment running (none_seed0)"),
                    "the freshness line names the running experiment: " + browser.evaluate(live + ".textContent"));
            assertEquals("1", browser.evaluate(live + ".dataset.refresh").asText());
            assertEquals("—", methodCell(browser, "none"), "no test accuracy yet for the running group");

            int reloads = browser.mark();
            browser.await("Page.loadEventFired", reloads);
            SiteFixture.complete(store, running, 1, 0, 4);
            GridReport.write(store, SiteFixture.GRID, null, site, true, 0);
            awaitRefresh(browser, live, "0");
            assertTrue(browser.evaluate(live + ".textContent").asText().contains("the grid is not running"));
            assertEquals(Formats.fixed(100 * SiteFixture.vacc(1, 0, SiteFixture.STEPS - 1), 2),
                    methodCell(browser, "none"), "the reloaded page shows the finished run's accuracy");
            int after = browser.mark();
            Thread.sleep(3000);
            assertTrue(browser.eventsSince(after).stream()
                    .noneMatch(e -> "Page.loadEventFired".equals(e.path("method").asText())),
                    "no reload after the grid ended (it reloaded every second while it ran)");
        }
    }

    /** Waits until the open page, reloading on its own, shows {@code refresh} in its freshness line's data. */
    private static void awaitRefresh(DevTools browser, String live, String refresh) throws Exception {
        for (int i = 0; i < 300; i++) {
            try {
                if (refresh.equals(browser.evaluate(live + ".dataset.refresh").asText())) {
                    return;
                }
            } catch (RuntimeException e) {
                // the page is between two loads
            }
            Thread.sleep(100);
        }
        fail("the open page never reloaded into the final report (data-refresh " + refresh + ")");
    }

    /** The final-accuracy cell of {@code method}'s row in the index's comparison table. */
    private static String methodCell(DevTools browser, String method) throws Exception {
        return browser.evaluate("[...document.querySelectorAll('table.methods tbody tr')].find(r => r.cells[1]"
                + ".textContent === '" + method + "').cells[4].textContent.trim()").asText();
    }

    /** Opens {@code page}, waits for its load event, and checks its images and its console. */
    private static void open(DevTools browser, Path page) throws Exception {
        int mark = browser.mark();
        browser.call("Page.navigate", Map.of("url", page.toUri().toString()));
        browser.await("Page.loadEventFired", mark);
        JsonNode broken = browser.evaluate(BROKEN_IMAGES);
        assertEquals(0, broken.size(), page + ": images that did not load: " + broken);
        assertTrue(browser.evaluate("document.images.length").asInt() > 0, page + " shows no image");
        assertEquals(List.of(), errors(browser.eventsSince(mark)), page + ": console errors");
    }

    private static List<String> errors(List<JsonNode> events) {
        List<String> errors = new ArrayList<>();
        for (JsonNode e : events) {
            String method = e.path("method").asText();
            JsonNode p = e.path("params");
            boolean error = switch (method) {
                case "Runtime.consoleAPICalled" -> List.of("error", "assert").contains(p.path("type").asText());
                case "Runtime.exceptionThrown" -> true;
                case "Log.entryAdded" -> "error".equals(p.path("entry").path("level").asText());
                case "unparsable" -> true;
                default -> false;
            };
            if (error) {
                errors.add(e.toString());
            }
        }
        return errors;
    }

    private static void sortsByAClickedHeader(DevTools browser) throws Exception {
        String column = "[...document.querySelectorAll('#experiments thead tr:first-child th')]"
                + ".findIndex(th => th.textContent.trim() === 'Vacc mean5')";
        String values = "[...document.querySelectorAll('#experiments tbody tr')].map(r => parseFloat(r.cells["
                + column + "].dataset.v))";
        String click = "document.querySelectorAll('#experiments thead tr:first-child th')[" + column + "].click()";
        double[] before = doubles(browser.evaluate(values));
        browser.evaluate(click);
        double[] ascending = doubles(browser.evaluate(values));
        double[] sorted = ascending.clone();
        Arrays.sort(sorted);
        assertArrayEquals(sorted, ascending, "ascending after one click");
        assertTrue(!Arrays.equals(before, ascending), "the fixture's name order is not the Vacc order");
        browser.evaluate(click);
        double[] descending = doubles(browser.evaluate(values));
        for (int i = 0; i < sorted.length; i++) {
            assertEquals(sorted[sorted.length - 1 - i], descending[i], "descending after a second click");
        }
    }

    private static void filters(DevTools browser) throws Exception {
        String visible = "[...document.querySelectorAll('#experiments tbody tr')].filter(r => !r.hidden).length";
        assertEquals(6, browser.evaluate(visible).asInt());
        type(browser, "document.getElementById('experiments-filter')", "topk");
        assertEquals(2, browser.evaluate(visible).asInt(), "the global filter keeps topk's two seeds");
        assertEquals("2 of 6", browser.evaluate("document.getElementById('experiments-count').textContent").asText());
        type(browser, "document.getElementById('experiments-filter')", "");
        type(browser, "document.querySelectorAll('#experiments tr.filters input')[1]", "diverged");
        assertEquals(1, browser.evaluate(visible).asInt(), "the state column's filter keeps the diverged run");
        type(browser, "document.querySelectorAll('#experiments tr.filters input')[1]", "");
        int vaccLast = browser.evaluate("[...document.querySelectorAll('#experiments thead tr:first-child th')]"
                + ".findIndex(th => th.textContent.trim() === 'Vacc last')").asInt();
        type(browser, "document.querySelectorAll('#experiments tr.filters input')[" + vaccLast + "]", ">0.65");
        assertEquals(3, browser.evaluate(visible).asInt(), "Vacc last > 0.65: none's two seeds and topk seed 0");
    }

    private static void type(DevTools browser, String input, String text) throws Exception {
        browser.evaluate("(() => { const i = " + input + "; i.value = '" + text
                + "'; i.dispatchEvent(new Event('input')); })()");
    }

    private static double[] doubles(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).isNumber() ? array.get(i).asDouble() : Double.NaN;
        }
        return out;
    }
}
