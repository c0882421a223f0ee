/**
 * Reports over the results store: a static HTML site per grid with XChart figures (PNG and SVG), CSV exports of its
 * tables and LaTeX tables of its comparisons.
 *
 * <p>{@link org.gridrun.reports.GridReport} is the entry point; everything it writes works offline (inline styles
 * and script, no network, no CDN) so a report directory can be copied anywhere and opened from disk.
 * {@link org.gridrun.reports.ChartFiles} writes any chart as PNG and SVG, for the site and the papers' figures alike.
 */
package org.gridrun.reports;
