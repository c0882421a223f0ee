package org.gridrun.jobs.cli;

import org.gridrun.jobs.slurm.ProcessSlurmClient;
import org.gridrun.jobs.slurm.SlurmClient;

/** The schedulers this machine can reach. */
final class Clusters {
    private Clusters() {
    }

    /** The SLURM cluster, when {@code sinfo} answers; else null. */
    static SlurmClient slurmIfAnswering() {
        SlurmClient slurm = new ProcessSlurmClient();
        return slurm.available() ? slurm : null;
    }
}
