package org.gridrun.reports;

import java.awt.AWTError;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.font.TextLayout;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes an XChart chart as {@code <base>.png} and {@code <base>.svg}, the two forms every gridrun figure has (PNG
 * for the browser, SVG for papers). Charts are drawn in a headless JVM: {@code java.awt.headless} is set to
 * {@code true} unless already set.
 *
 * <p>A JVM that cannot draw text (a cluster node or GPU machine without the font libraries that Java's font manager
 * loads, such as libharfbuzz or fontconfig) draws no figure: each is skipped, one warning on stderr says why, and the
 * rest of the report (pages, tables, the data behind them) is written as usual; {@code grid-run report} on a machine
 * with fonts draws them later. A grid whose runs completed must not fail over its pictures.
 */
public final class ChartFiles {
    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** Why this JVM cannot draw text, or null when it can; probed once, at the first figure. */
    private static final class Text {
        static final String UNUSABLE = unusableReason(() -> {
            Graphics2D g = new BufferedImage(1, 1, BufferedImage.TYPE_INT_ARGB).createGraphics();
            try {
                new TextLayout("0.5", new Font(Font.SANS_SERIF, Font.PLAIN, 12), g.getFontRenderContext())
                        .getBounds();
            } finally {
                g.dispose();
            }
        });
    }

    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private ChartFiles() {
    }

    /**
     * Why {@code drawText} fails, or null when it runs: the errors a JVM without a usable font stack throws (a native
     * library that does not load, a font configuration that is missing) and nothing else.
     */
    static String unusableReason(Runnable drawText) {
        try {
            drawText.run();
            return null;
        } catch (LinkageError | AWTError | InternalError | RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /**
     * Writes {@code chart} as {@code dir/base.png} and {@code dir/base.svg}; returns both paths, or none when this JVM
     * cannot draw text (see the class comment).
     */
    public static List<Path> writePngAndSvg(Chart<?, ?> chart, Path dir, String base) {
        return writePngAndSvg(chart, dir, base, Text.UNUSABLE);
    }

    /** {@link #writePngAndSvg(Chart, Path, String)} where {@code unusable} says why text cannot be drawn, or null. */
    static List<Path> writePngAndSvg(Chart<?, ?> chart, Path dir, String base, String unusable) {
        if (unusable != null) {
            if (WARNED.compareAndSet(false, true)) {
                System.err.println("gridrun: figures not drawn: this Java cannot draw text (" + unusable + "); the "
                        + "report's pages and data are written, and grid-run report draws the figures on a machine "
                        + "with fonts");
            }
            return List.of();
        }
        Path png = dir.resolve(base + ".png");
        Path svg = dir.resolve(base + ".svg");
        save(png, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
        save(svg, out -> VectorGraphicsEncoder.saveVectorGraphic(chart, out,
                VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
        return List.of(png, svg);
    }

    /** Deletes {@code dir/base.png} and {@code dir/base.svg} where they exist (a figure that has no data now). */
    public static void remove(Path dir, String base) {
        try {
            Files.deleteIfExists(dir.resolve(base + ".png"));
            Files.deleteIfExists(dir.resolve(base + ".svg"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove stale figure " + base + " in " + dir + ": "
                    + e.getMessage(), e);
        }
    }

    private static void save(Path file, Encoder encoder) {
        try (OutputStream out = Files.newOutputStream(file)) {
            encoder.encode(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write figure " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes a chart to a stream. */
    @FunctionalInterface
    private interface Encoder {
        void encode(OutputStream out) throws IOException;
    }
}
