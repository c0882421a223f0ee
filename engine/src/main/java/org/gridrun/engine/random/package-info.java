/**
 * Counter-based random numbers: every draw is a pure function of (seed, stream, counter), so any stream can be
 * recreated, split per worker, or saved in a checkpoint as three numbers.
 */
package org.gridrun.engine.random;
