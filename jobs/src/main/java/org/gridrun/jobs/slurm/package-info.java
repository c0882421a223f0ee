/**
 * The SLURM executor: task scripts and sbatch job arrays laid out as the ALQ/AMQ seed's {@code grid_run.py} wrote
 * them ({@link org.gridrun.jobs.slurm.SlurmScriptText}, {@link org.gridrun.jobs.slurm.ScriptLayout}), their
 * submission with array limits, dependencies and preemption requeue ({@link org.gridrun.jobs.slurm.SlurmSubmitter}),
 * and the commands that talk to the cluster ({@link org.gridrun.jobs.slurm.SlurmClient}: sbatch, squeue, scancel,
 * scontrol) behind one interface that tests replace.
 */
package org.gridrun.jobs.slurm;
