/**
 * Reports over the results store: figures of mean curves over seeds (XChart, PNG and SVG) and a static HTML page
 * per grid.
 *
 * <p>{@link org.gridrun.reports.GridReport} is the entry point; everything it writes is offline (no network, no
 * JavaScript) so a report directory can be copied anywhere and opened from disk.
 */
package org.gridrun.reports;
