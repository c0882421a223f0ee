package org.gridrun.jobs.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JVM options of local jobs: each one's share of the heap, and the user's options last. */
class JobLauncherTest {
    @Test
    void jobsSharingAMachineSplitThreeQuartersOfItsMemory() {
        assertEquals(List.of("--add-modules", "jdk.incubator.vector", "-XX:MaxRAMPercentage=75.0"),
                JobLauncher.jvmOptions(1));
        assertEquals("-XX:MaxRAMPercentage=25.0", JobLauncher.jvmOptions(3).get(2));
        assertEquals("-XX:MaxRAMPercentage=75.0", JobLauncher.jvmOptions(0).get(2), "no job is treated as one");
    }

    @Test
    void theUsersOptionsAreSplitOnWhiteSpaceAndComeLast() {
        assertEquals(List.of(), JobLauncher.userOptions(Map.of()));
        assertEquals(List.of(), JobLauncher.userOptions(Map.of(JobLauncher.USER_OPTIONS, "  \t ")));
        assertEquals(List.of("-Xmx48g", "-XX:+UseParallelGC"),
                JobLauncher.userOptions(Map.of(JobLauncher.USER_OPTIONS, " -Xmx48g\t -XX:+UseParallelGC\n")));
    }

    @Test
    void theClassPathJobsGetIsAbsoluteForAJarNamedRelatively() {
        String saved = System.getProperty("java.class.path");
        try {
            System.setProperty("java.class.path", "jobs/target/grid-run.jar" + File.pathSeparator + "/opt/x.jar");
            assertEquals(Path.of("jobs/target/grid-run.jar").toAbsolutePath() + File.pathSeparator + "/opt/x.jar",
                    JobLauncher.classpath());
        } finally {
            System.setProperty("java.class.path", saved);
        }
    }

    @Test
    void jobsInheritTheGridrunPropertiesSetHere() {
        System.setProperty("gridrun.test.path", "im2col");
        try {
            assertEquals(true, JobLauncher.inheritedProperties().contains("-Dgridrun.test.path=im2col"));
            assertEquals(false, JobLauncher.inheritedProperties().stream().anyMatch(o -> o.startsWith("-Djava.")));
        } finally {
            System.clearProperty("gridrun.test.path");
        }
    }
}
