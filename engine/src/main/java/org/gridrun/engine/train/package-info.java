/**
 * The simulated data-parallel trainer: its configuration schema and validation ({@link
 * org.gridrun.engine.train.TrainerConfig}), the step loop over K workers with a compressor and a simulated
 * collective ({@link org.gridrun.engine.train.Trainer}), progress callbacks, its checkpoints and the stop requests
 * that save one ({@link org.gridrun.engine.train.Checkpoint}, {@link org.gridrun.engine.train.StopSignal}), and the
 * job entry point that trains one experiment from its run directory, resuming from its checkpoint
 * ({@link org.gridrun.engine.train.TrainJob}).
 */
package org.gridrun.engine.train;
