package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

/** Figures are drawn where Java can draw text and skipped, not failed, where its font stack does not load. */
class ChartFilesTest {
    @TempDir
    Path dir;

    private static XYChart chart() {
        XYChart chart = new XYChart(300, 200);
        chart.setTitle("loss");
        chart.addSeries("qsgd", new double[] {0, 1, 2}, new double[] {2.3, 1.1, 0.7});
        return chart;
    }

    @Test
    void aFontStackThatDoesNotLoadIsTheReason() {
        String reason = ChartFiles.unusableReason(() -> {
            throw new UnsatisfiedLinkError("libfontmanager.so: libharfbuzz.so.0: cannot open shared object file");
        });
        assertTrue(reason.startsWith("UnsatisfiedLinkError: libfontmanager.so: libharfbuzz.so.0"), reason);
        assertNull(ChartFiles.unusableReason(() -> { }));
    }

    @Test
    void otherErrorsAreNotTakenForAMissingFontStack() {
        assertThrows(OutOfMemoryError.class, () -> ChartFiles.unusableReason(() -> {
            throw new OutOfMemoryError("heap");
        }));
    }

    @Test
    void aJvmThatCannotDrawTextWritesNoFigureAndDoesNotFail() {
        List<Path> written = ChartFiles.writePngAndSvg(chart(), dir, "loss", "UnsatisfiedLinkError: no harfbuzz");
        assertEquals(List.of(), written);
        assertFalse(Files.exists(dir.resolve("loss.png")));
        assertFalse(Files.exists(dir.resolve("loss.svg")));
    }

    @Test
    void aJvmThatCanDrawTextWritesBothForms() throws Exception {
        List<Path> written = ChartFiles.writePngAndSvg(chart(), dir, "loss");
        assertEquals(List.of(dir.resolve("loss.png"), dir.resolve("loss.svg")), written);
        assertTrue(Files.size(dir.resolve("loss.png")) > 100);
        assertTrue(Files.readString(dir.resolve("loss.svg")).contains("<svg"));
    }
}
