package org.gridrun.jobs.slurm;

/** TEMPORARY stand-in until the slurm branch lands. */
public class SlurmException extends RuntimeException {
    public SlurmException(String message) {
        super(message);
    }
}
