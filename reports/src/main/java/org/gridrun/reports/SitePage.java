package org.gridrun.reports;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The frame of every page of the site: one HTML document with its style sheet and its table script inline, so a page
 * needs no network and no CDN.
 *
 * <p>Under its title every page loads the site's {@link LiveScript} ({@code live.js} at the site's root), which says
 * how fresh the report is and which experiments run, and reloads the page while the grid runs; a page opened without
 * that file or without scripts still shows everything else.
 */
final class SitePage {
    private static final String CSS = resource("site.css");
    private static final String SCRIPT = resource("table.js");

    private SitePage() {
    }

    /**
     * A page titled {@code title} (escaped) around {@code body} (HTML); with the table script when asked. {@code root}
     * is the way from the page to the site's root: empty for the index, {@code ../} one folder down.
     */
    static String render(String title, String body, boolean sortable, String root) {
        StringBuilder out = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append(Html.element("title", title)).append("\n<style>\n").append(CSS).append("</style>\n</head>\n")
                .append("<body>\n").append(Html.element("h1", title)).append('\n')
                .append("<p id=\"").append(LiveScript.ELEMENT).append("\" class=\"meta\"></p>\n<script src=\"")
                .append(Html.escape(root + LiveScript.FILE)).append("\"></script>\n").append(body);
        if (sortable) {
            out.append("<script>\n").append(SCRIPT).append("</script>\n");
        }
        return out.append("</body>\n</html>\n").toString();
    }

    /** A figure showing {@code base}.png with a link to {@code base}.svg; {@code base} is a relative path. */
    static String figure(String base, String caption) {
        String b = Html.escape(base);
        return "<figure>\n<img src=\"" + b + ".png\" alt=\"" + Html.escape(caption) + "\">\n<figcaption>"
                + Html.escape(caption) + " · <a href=\"" + b + ".svg\">SVG</a></figcaption>\n</figure>\n";
    }

    private static String resource(String name) {
        try (InputStream in = SitePage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the report resource " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report resource " + name, e);
        }
    }
}
