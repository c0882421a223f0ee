package org.gridrun.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The site's {@code live.js}: when the report was written, which experiments were running, and whether open pages
 * reload themselves.
 *
 * <p>Every page loads it under its title. It fills the page's freshness line ("written 21:40:05 UTC, 12 s ago ·
 * 2 running: …") and, while the grid runs, reloads the page every {@code refresh} seconds; the report written when
 * the grid ends sets no reload, so open pages settle on the final results. A script file rather than a meta refresh
 * in each page keeps the pages themselves unchanged between rewrites (only what changed is rewritten) and works from
 * disk, where a page cannot fetch data files.
 */
final class LiveScript {
    /** The script's file name, at the site's root. */
    static final String FILE = "live.js";
    /** The id of the element it fills. */
    static final String ELEMENT = "gridrun-live";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BODY = """
            (function (live) {
              var el = document.getElementById("%s");
              if (!el) { return; }
              var age = Math.max(0, Math.round((Date.now() - live.written) / 1000));
              var text = "report written " + live.writtenText + " (" + age + " s ago)";
              if (live.refresh > 0) {
                text += " · grid running: " + live.running.length + " experiment" + (live.running.length === 1 ? "" : "s")
                  + " running" + (live.running.length ? " (" + live.running.join(", ") + ")" : "")
                  + (live.queued ? ", " + live.queued + " queued" : "")
                  + " · this page reloads every " + live.refresh + " s";
                setTimeout(function () { location.reload(); }, live.refresh * 1000);
              } else {
                text += " · the grid is not running" + (live.running.length ? "; still marked running: "
                  + live.running.join(", ") : "");
              }
              el.textContent = text;
              el.setAttribute("data-refresh", String(live.refresh));
            })(%s);
            """;

    private LiveScript() {
    }

    /**
     * The script for a report written at {@code written} while {@code running} experiments ran and {@code queued}
     * waited; {@code refresh} seconds between reloads of open pages, 0 for none (the grid is not running).
     */
    static String render(Instant written, List<String> running, int queued, int refresh) {
        Map<String, Object> live = new LinkedHashMap<>();
        live.put("written", written.toEpochMilli());
        live.put("writtenText", TIME.format(written));
        live.put("running", running);
        live.put("queued", queued);
        live.put("refresh", refresh);
        try {
            return "// gridrun: how fresh this report is; pages reload while refresh > 0\n"
                    + BODY.formatted(ELEMENT, JSON.writeValueAsString(live));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the report's live.js", e);
        }
    }
}
