package org.gridrun.reports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * The files one report owns in its directory: written only when their content changed, and removed once no page
 * needs them.
 *
 * <p>The report keeps the list of files it wrote in {@value #MANIFEST}; {@link #finish()} deletes the files of the
 * previous list that this report did not write again, and nothing else, so files a user put beside the report
 * survive every re-run; a manifest line that points outside the directory is ignored. Paths are relative to the
 * report directory and use {@code /}.
 */
final class SiteFiles {
    /** The list of owned files, one relative path a line. */
    static final String MANIFEST = ".gridrun-report";

    private final Path root;
    private final Set<String> previous;
    private final Set<String> written = new TreeSet<>();
    private int changed;

    private SiteFiles(Path root, Set<String> previous) {
        this.root = root;
        this.previous = previous;
    }

    /** The owned files of the report in {@code root}, creating the directory; none when it has no manifest. */
    static SiteFiles open(Path root) {
        createDirectories(root);
        Path manifest = root.resolve(MANIFEST);
        Set<String> previous = new TreeSet<>();
        if (Files.isRegularFile(manifest)) {
            try {
                Files.readAllLines(manifest, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
                        .forEach(previous::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + manifest + ": " + e.getMessage(), e);
            }
        }
        return new SiteFiles(root, previous);
    }

    /** Writes {@code text} to {@code relative} unless the file already holds exactly it; returns its path. */
    Path text(String relative, String text) {
        Path file = claim(relative);
        if (holds(relative, text)) {
            return file;
        }
        try {
            Files.write(file, text.getBytes(StandardCharsets.UTF_8));
            changed++;
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code relative} exists and holds exactly {@code text}. */
    boolean holds(String relative, String text) {
        Path file = root.resolve(relative);
        try {
            return Files.isRegularFile(file)
                    && Arrays.equals(Files.readAllBytes(file), text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Keeps the figure {@code <dir>/<base>} of the previous report as it is, when both its files exist; returns
     * whether it did (otherwise the caller draws it).
     */
    boolean keepFigure(String dir, String base) {
        String png = dir + "/" + base + ".png";
        String svg = dir + "/" + base + ".svg";
        if (!Files.isRegularFile(root.resolve(png)) || !Files.isRegularFile(root.resolve(svg))) {
            return false;
        }
        written.add(png);
        written.add(svg);
        return true;
    }

    /** Draws {@code chart} as {@code <dir>/<base>.png} and {@code .svg}; returns both paths. */
    List<Path> figure(Chart<?, ?> chart, String dir, String base) {
        claim(dir + "/" + base + ".png");
        claim(dir + "/" + base + ".svg");
        changed += 2;
        return ChartFiles.writePngAndSvg(chart, root.resolve(dir), base);
    }

    /** How many files this report wrote because they were new or different. */
    int changed() {
        return changed;
    }

    /**
     * Removes the files the previous report owned that this one did not write, and records what it wrote; returns
     * the removed files' relative paths.
     */
    List<String> finish() {
        List<String> stale = new ArrayList<>();
        for (String relative : previous) {
            Path file = root.resolve(relative).normalize();
            if (!written.contains(relative) && file.startsWith(root.normalize()) && !file.equals(root.normalize())) {
                try {
                    if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(file)) {
                        stale.add(relative);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove stale report file " + file
                            + ": " + e.getMessage(), e);
                }
            }
        }
        removeEmptyDirectories(stale);
        text(MANIFEST, String.join("\n", manifestLines()) + "\n");
        return stale;
    }

    private List<String> manifestLines() {
        List<String> lines = new ArrayList<>(written);
        lines.remove(MANIFEST);
        return lines;
    }

    private Path claim(String relative) {
        written.add(relative);
        Path file = root.resolve(relative);
        createDirectories(file.getParent());
        return file;
    }

    private void removeEmptyDirectories(List<String> removed) {
        Set<Path> dirs = new TreeSet<>((a, b) -> b.getNameCount() - a.getNameCount() != 0
                ? b.getNameCount() - a.getNameCount() : a.compareTo(b));
        for (String relative : removed) {
            for (Path p = root.resolve(relative).getParent(); p != null && p.startsWith(root) && !p.equals(root);
                    p = p.getParent()) {
                dirs.add(p);
            }
        }
        for (Path dir : dirs) {
            try (var entries = Files.list(dir)) {
                if (entries.findAny().isEmpty()) {
                    Files.delete(dir);
                }
            } catch (IOException e) {
                // a directory that cannot be listed or removed is left as it is
            }
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create report directory " + dir + ": " + e.getMessage(), e);
        }
    }
}
