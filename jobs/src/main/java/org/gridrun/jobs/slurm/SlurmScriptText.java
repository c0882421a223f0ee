package org.gridrun.jobs.slurm;

import java.util.List;
import java.util.Map;
import org.gridrun.engine.backend.GpuSlot;
import org.gridrun.jobs.Shell;

/**
 * The text of the files a SLURM submission consists of, as the ALQ/AMQ seed laid them out: task scripts
 * {@code jobs/<prefix>_<i>.sh} that start their experiments in parallel and {@code wait}, and one sbatch file per job
 * array whose task {@code i} runs script {@code firstScript + i}.
 *
 * <p>Preemption: the array asks for {@code --signal=B:USR1@S}; the batch shell forwards USR1 to its task script,
 * which forwards it to the trainers; each checkpoints and records PREEMPTED; then the batch shell requeues its
 * own array task with {@code scontrol requeue} unless it has been requeued {@code max-requeues} times already
 * ({@code $SLURM_RESTART_COUNT}). The requeued task runs the same script again and each trainer resumes from its
 * checkpoint; a completed experiment is not trained again.
 */
public final class SlurmScriptText {
    private SlurmScriptText() {
    }

    /** The sbatch file of {@code request}. */
    public static String sbatch(ArrayRequest r) {
        StringBuilder text = new StringBuilder("#!/bin/bash\n");
        text.append("# Written by grid-run ").append(r.version()).append(" for grid ").append(r.grid())
                .append(", run ").append(r.run()).append(": array task i runs ").append(r.script(0))
                .append(r.tasks() > 1 ? " … " + r.script(r.tasks() - 1) : "").append(" (").append(r.scriptPrefix())
                .append("_<").append(r.firstScript()).append("+i>.sh).\n");
        text.append("# Submit with: sbatch ").append(r.sbatchFile())
                .append("   (grid-run --submit does it and records the job id)\n");
        text.append("# Jobs write live to the results store when GRIDRUN_DB_URL is set where you submit; they read its "
                + "secret from the store's secret file or $GRIDRUN_DB_SECRET, never from this script.\n");
        option(text, "job-name", r.jobName());
        option(text, "chdir", r.workdir());
        option(text, "output", r.logPattern());
        option(text, "open-mode", "append");
        option(text, "array", "0-" + (r.tasks() - 1) + (r.concurrent() > 0 && r.concurrent() < r.tasks()
                ? "%" + r.concurrent() : ""));
        String partition = r.partition() != null ? r.partition() : r.spec().options().get("partition");
        if (partition != null && !partition.isEmpty()) {
            option(text, "partition", partition);
        }
        for (Map.Entry<String, String> o : r.spec().options().entrySet()) {
            if (!ArrayRequest.OWN_OPTIONS.contains(o.getKey())) {
                option(text, o.getKey(), o.getValue());
            }
        }
        if (!r.spec().options().containsKey("ntasks")) {
            option(text, "ntasks", "1");
        }
        option(text, "signal", "B:USR1@" + r.spec().signalSeconds());
        text.append("#SBATCH --requeue\n");
        r.spec().extra().forEach(extra -> text.append("#SBATCH ").append(extra).append('\n'));
        text.append('\n');
        text.append("set -u\n");
        text.append("cd ").append(Shell.quote(r.workdir())).append('\n');
        text.append("export GRIDRUN_JAVA=\"${GRIDRUN_JAVA:-").append(doubleQuoted(r.java())).append("}\"\n");
        text.append("export GRIDRUN_CLASSPATH=\"${GRIDRUN_CLASSPATH:-").append(doubleQuoted(r.classpath()))
                .append("}\"\n");
        r.spec().env().forEach((k, v) -> text.append("export ").append(k).append('=').append(Shell.quote(v))
                .append('\n'));
        r.spec().setup().forEach(line -> text.append(line).append('\n'));
        text.append("echo \"$(date '+%F %T') $(hostname): array job ${SLURM_ARRAY_JOB_ID} task "
                + "${SLURM_ARRAY_TASK_ID}, restart ${SLURM_RESTART_COUNT:-0}\"\n");
        text.append("script=").append(r.scriptPrefix()).append("_$((SLURM_ARRAY_TASK_ID + ")
                .append(r.firstScript()).append(")).sh\n");
        text.append("max_requeues=").append(r.spec().maxRequeues()).append('\n');
        text.append("""
                on_usr1() {
                    echo "$(date '+%F %T') time limit near: experiments checkpoint"
                    kill -USR1 "$task" 2>/dev/null
                    wait "$task"
                    if [ "${SLURM_RESTART_COUNT:-0}" -lt "$max_requeues" ]; then
                        scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
                    else
                        echo "requeued $max_requeues times already: not requeued; grid-run resubmit continues it"
                    fi
                    exit 0
                }
                trap on_usr1 USR1
                bash "$script" &
                task=$!
                wait "$task"
                status=$?
                # a trapped USR1 interrupts wait; the trap exits, so reaching here means the script ended
                exit $status
                """);
        return text.toString();
    }

    /**
     * A task script: the experiments of {@code runDirs} (paths relative to the working directory), each staged from
     * its JSON in {@code experiments} and trained in the background with its output appended to its run directory's
     * log, then {@code wait}. Experiment {@code j} gets slot {@code j} ({@link GpuSlot}): on an array task given
     * several GPUs ({@code gres: gpu:4}), the script's experiments spread over them.
     */
    public static String taskScript(ArrayRequest r, int script, List<String> runDirs, List<String> experiments,
                                    List<String> trainArguments) {
        StringBuilder text = new StringBuilder("#!/bin/bash\n");
        text.append("# Written by grid-run ").append(r.version()).append(" for grid ").append(r.grid())
                .append(", run ").append(r.run()).append(": task script ").append(script).append(", ")
                .append(runDirs.size()).append(runDirs.size() == 1 ? " experiment" : " experiments")
                .append(" in parallel, then wait.\n");
        text.append("export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}\n");
        text.append("trap 'kill -USR1 $(jobs -pr) 2>/dev/null' USR1\n");
        // exec: a trainer started in the background is the job itself, not a subshell, so the trap's USR1 reaches it
        text.append("train() { exec \"$GRIDRUN_JAVA\" ")
                .append(String.join(" ", trainArguments.stream().map(Shell::quote).toList())
                        .replace("'$GRIDRUN_CLASSPATH'", "\"$GRIDRUN_CLASSPATH\"")
                        .replace("'$GRIDRUN_JAVA_OPTS'", "$GRIDRUN_JAVA_OPTS"))
                .append(" \"$@\"; }\n");
        for (int j = 0; j < runDirs.size(); j++) {
            text.append("d=").append(Shell.quote(runDirs.get(j))).append("; mkdir -p \"$d\"\n")
                    .append(GpuSlot.VARIABLE).append('=').append(j).append(" train --experiment ")
                    .append(Shell.quote(experiments.get(j)))
                    .append(" \"$d\" >> \"$d/log\" 2>&1 &\n");
        }
        text.append("while [ -n \"$(jobs -pr)\" ]; do wait; done\n");
        return text.toString();
    }

    private static void option(StringBuilder text, String name, String value) {
        text.append("#SBATCH --").append(name).append('=').append(value).append('\n');
    }

    private static String doubleQuoted(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "\\$").replace("`", "\\`");
    }
}
