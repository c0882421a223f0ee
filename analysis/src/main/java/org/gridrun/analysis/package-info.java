/**
 * The results store: an embedded H2 database holding every experiment of every grid, the exactly-once ingest of
 * run directories into it, a TCP server and web console in front of it, queries, and statistics over seeds.
 *
 * <p>{@link org.gridrun.analysis.ResultsStore} is the entry point and {@link org.gridrun.analysis.StoreServer} serves
 * it to jobs that write live; {@link org.gridrun.analysis.SeedSummary}, {@link org.gridrun.analysis.Groups} and
 * {@link org.gridrun.analysis.Curves} turn what it returns into the numbers and curves that reports show.
 */
package org.gridrun.analysis;
