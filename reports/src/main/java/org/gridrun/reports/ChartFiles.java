package org.gridrun.reports;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes an XChart chart as {@code <base>.png} and {@code <base>.svg}, the two forms every gridrun figure has (PNG
 * for the browser, SVG for papers). Charts are drawn in a headless JVM: {@code java.awt.headless} is set to
 * {@code true} unless already set.
 */
public final class ChartFiles {
    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private ChartFiles() {
    }

    /** Writes {@code chart} as {@code dir/base.png} and {@code dir/base.svg}; returns both paths. */
    public static List<Path> writePngAndSvg(Chart<?, ?> chart, Path dir, String base) {
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
