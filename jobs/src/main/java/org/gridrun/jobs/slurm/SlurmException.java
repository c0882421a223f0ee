package org.gridrun.jobs.slurm;

/**
 * A SLURM command failed, did not answer in time, or printed something this client cannot read; the message
 * names the command and quotes what it said.
 */
public final class SlurmException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SlurmException(String message) {
        super(message);
    }

    public SlurmException(String message, Throwable cause) {
        super(message, cause);
    }
}
