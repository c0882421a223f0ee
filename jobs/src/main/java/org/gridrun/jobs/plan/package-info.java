/**
 * From expanded grid experiments to a plan of run directories: identity, resolved configs, what to skip.
 */
package org.gridrun.jobs.plan;
