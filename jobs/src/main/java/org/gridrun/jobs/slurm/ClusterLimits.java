package org.gridrun.jobs.slurm;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster's limits on how many jobs one submission may create; a limit the cluster does not tell is empty.
 *
 * @param maxArraySize  {@code MaxArraySize} of {@code scontrol show config}: array indices run from 0 to one less
 * @param maxSubmitJobs the user's {@code MaxSubmitJobs} from sacctmgr (queued and running jobs, each array task
 *                      counted), empty when there is no accounting database or no limit
 * @param maxJobCount   {@code MaxJobCount} of {@code scontrol show config}: jobs slurmctld holds at once, all
 *                      users together
 */
public record ClusterLimits(OptionalInt maxArraySize, OptionalInt maxSubmitJobs, OptionalInt maxJobCount) {
    /** Tasks per array when the cluster does not tell: SLURM's default MaxArraySize of 1001, less one. */
    public static final int DEFAULT_TASKS_PER_ARRAY = 1000;

    /** Nothing known. */
    public static final ClusterLimits UNKNOWN =
            new ClusterLimits(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty());

    private static final Pattern CONFIG_LINE = Pattern.compile("(?m)^\\s*(\\w+)\\s*=\\s*(\\S+)\\s*$");

    public ClusterLimits {
        Objects.requireNonNull(maxArraySize, "maxArraySize");
        Objects.requireNonNull(maxSubmitJobs, "maxSubmitJobs");
        Objects.requireNonNull(maxJobCount, "maxJobCount");
    }

    /** The limits in the output of {@code scontrol show config}; MaxSubmitJobs is left unknown. */
    public static ClusterLimits fromConfig(String scontrolShowConfig) {
        OptionalInt arraySize = OptionalInt.empty();
        OptionalInt jobCount = OptionalInt.empty();
        Matcher m = CONFIG_LINE.matcher(scontrolShowConfig);
        while (m.find()) {
            if (m.group(1).equals("MaxArraySize")) {
                arraySize = number(m.group(2));
            } else if (m.group(1).equals("MaxJobCount")) {
                jobCount = number(m.group(2));
            }
        }
        return new ClusterLimits(arraySize, OptionalInt.empty(), jobCount);
    }

    /**
     * The smallest MaxSubmitJobs in the output of {@code sacctmgr -nP show assoc user=<user> format=MaxSubmit}
     * (one line per association; an empty line is one without a limit), or empty when no line sets one.
     */
    public static OptionalInt maxSubmitFromSacctmgr(String output) {
        return output.lines().map(String::strip).map(ClusterLimits::number).filter(OptionalInt::isPresent)
                .mapToInt(OptionalInt::getAsInt).min();
    }

    /** These limits with MaxSubmitJobs replaced. */
    public ClusterLimits withMaxSubmitJobs(OptionalInt limit) {
        return new ClusterLimits(maxArraySize, limit, maxJobCount);
    }

    /**
     * The most tasks one job array may hold: MaxArraySize (indices 0 to MaxArraySize − 1), at most MaxSubmitJobs
     * when that is known, {@value #DEFAULT_TASKS_PER_ARRAY} when MaxArraySize is not; never less than 1.
     */
    public int maxTasksPerArray() {
        int tasks = maxArraySize.orElse(DEFAULT_TASKS_PER_ARRAY);
        if (maxSubmitJobs.isPresent()) {
            tasks = Math.min(tasks, maxSubmitJobs.getAsInt());
        }
        return Math.max(1, tasks);
    }

    private static OptionalInt number(String text) {
        try {
            return OptionalInt.of(Integer.parseInt(text));
        } catch (NumberFormatException notANumber) {
            return OptionalInt.empty();
        }
    }
}
