/**
 * The papers' figures and tables from YAML specs: {@code figures/nuq.yaml} names a grid, its runs, a metric and an
 * ordered list of labelled series, and {@link org.gridrun.reports.paper.PaperFigures} draws each figure (PNG and
 * SVG) and writes each table (Markdown, CSV, LaTeX) from the results store.
 *
 * <p>docs/figures.md describes the spec format.
 */
package org.gridrun.reports.paper;
