/**
 * The {@code grid-run} command line (picocli): each command a {@code Callable<Integer>}, exit 0 ok, 1 failure,
 * 2 bad input.
 */
package org.gridrun.jobs.cli;
