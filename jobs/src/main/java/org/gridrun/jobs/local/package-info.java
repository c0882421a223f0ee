/**
 * The local executor: a process pool on this machine with the same run lifecycle as a cluster.
 */
package org.gridrun.jobs.local;
