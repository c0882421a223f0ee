package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Limits read from {@code scontrol show config} as SLURM 22.05.8 prints it (recorded from the one-node cluster of
 * {@code scripts/slurm-local.sh}), and from sacctmgr's parsable output.
 */
class ClusterLimitsTest {

    @Test
    void theRecordedConfigHasTheDefaultArraySizeAndJobCount() {
        ClusterLimits limits = ClusterLimits.fromConfig(SqueueParserTest.recorded("scontrol-show-config.txt"));
        assertEquals(new ClusterLimits(OptionalInt.of(1001), OptionalInt.empty(), OptionalInt.of(10000)), limits);
        assertEquals(1001, limits.maxTasksPerArray());
    }

    @Test
    void anArrayHoldsMaxArraySizeTasksAtMostMaxSubmitJobs() {
        assertEquals(50, limits(1001, 50).maxTasksPerArray());
        assertEquals(4, limits(4, 50).maxTasksPerArray());
        assertEquals(200, limits(-1, 200).maxTasksPerArray());
        assertEquals(1, limits(1, -1).maxTasksPerArray());
    }

    @Test
    void unknownLimitsAllowTheDefaultOfAThousandTasks() {
        assertEquals(ClusterLimits.DEFAULT_TASKS_PER_ARRAY, ClusterLimits.UNKNOWN.maxTasksPerArray());
        assertEquals(ClusterLimits.UNKNOWN, ClusterLimits.fromConfig(""));
    }

    @Test
    void aLimitOfZeroStillLetsOneTaskBeSubmittedSoSlurmCanSayWhyItRefuses() {
        assertEquals(1, limits(1001, 0).maxTasksPerArray());
    }

    @Test
    void valuesThatAreNotNumbersAreUnknown() {
        ClusterLimits limits = ClusterLimits.fromConfig("MaxArraySize            = (null)\nMaxJobCount = 5\n");
        assertEquals(new ClusterLimits(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.of(5)), limits);
    }

    @Test
    void theSmallestMaxSubmitOfTheUsersAssociationsCounts() {
        assertEquals(OptionalInt.of(20), ClusterLimits.maxSubmitFromSacctmgr("100\n20\n\n"));
        assertEquals(OptionalInt.empty(), ClusterLimits.maxSubmitFromSacctmgr("\n\n"));
        assertEquals(OptionalInt.empty(), ClusterLimits.maxSubmitFromSacctmgr(""));
    }

    @Test
    void maxSubmitJobsIsReplacedAndTheRestKept() {
        ClusterLimits limits = limits(1001, -1).withMaxSubmitJobs(OptionalInt.of(7));
        assertEquals(OptionalInt.of(7), limits.maxSubmitJobs());
        assertEquals(OptionalInt.of(1001), limits.maxArraySize());
    }

    private static ClusterLimits limits(int maxArraySize, int maxSubmitJobs) {
        return new ClusterLimits(known(maxArraySize), known(maxSubmitJobs), OptionalInt.empty());
    }

    private static OptionalInt known(int value) {
        return value < 0 ? OptionalInt.empty() : OptionalInt.of(value);
    }
}
