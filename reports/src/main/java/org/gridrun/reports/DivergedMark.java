package org.gridrun.reports;

import java.awt.Color;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The mark of a diverged line in a figure: a cross at its last point drawn, labelled DIVERGED in the plot and in the
 * legend.
 */
final class DivergedMark {
    static final String LABEL = "DIVERGED";

    private DivergedMark() {
    }

    /** Adds the mark of the line {@code name} at ({@code step}, {@code value}) in {@code color}. */
    static void add(XYChart chart, String name, double step, double value, Color color) {
        XYSeries mark = chart.addSeries(name + " — " + LABEL, new double[] {step}, new double[] {value});
        mark.setMarker(SeriesMarkers.CROSS);
        mark.setMarkerColor(color);
        mark.setLineColor(color);
        chart.addAnnotation(new AnnotationText(LABEL, step, value, false));
    }
}
