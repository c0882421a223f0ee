/**
 * The run-directory contract shared by the jobs that write it and the store that ingests it: states, the status
 * history, the resolved experiment, and the metric spool.
 */
package org.gridrun.engine.run;
