/**
 * Plans, executors and the {@code grid-run} command line: the orchestrating end of gridrun.
 */
package org.gridrun.jobs;
