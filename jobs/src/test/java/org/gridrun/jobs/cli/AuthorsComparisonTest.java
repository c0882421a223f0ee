package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code scripts/compare-with-authors.py --check} against this build's CLI: on real MLP and conv-net gradients,
 * gridrun's SmaQ, JointSQ, ALQ, AMQ, DGC, AC-SGD and MCGQ against re-implementations of what the authors' code does,
 * and PowerSGD's two variants on 16 consecutive gradients of a layer (the same bits every step, a mean error within
 * 10 % of the authors' algorithm's), failing when gridrun misses a target (docs/compressors-vs-papers.md). Skipped
 * where python3 cannot import torch.
 */
class AuthorsComparisonTest {
    @TempDir
    Path tmp;

    @Test
    void gridrunIsAtLeastAsGoodAsTheAuthorsCodeOnRealGradients() throws Exception {
        TorchBench torch = TorchBench.find();
        assumeTrue(torch != null, "python3 cannot import torch");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String classpath = System.getProperty("java.class.path");
        String gridrun = "'" + java + "' -cp '" + classpath + "' " + GridRun.class.getName();
        Path script = Path.of("..", "scripts", "compare-with-authors.py").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(List.of(torch.python(), script.toString(), "--gridrun", gridrun, "--out",
                tmp.toString(), "--check")).redirectErrorStream(true).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the comparison finished");
        System.out.println(printed);
        assertEquals(0, p.exitValue(), printed);
        assertTrue(printed.contains("| method | the authors' code | gridrun | what it means |"), printed);
        assertTrue(printed.contains("targets: all met"), printed);
        String results = Files.readString(tmp.resolve("results.json"));
        assertTrue(results.contains("\"jointsq_conv4\""), results);
        for (String key : new String[] {"powersgd_paper", "powersgd_alternating", "powersgd_alternating2"}) {
            assertTrue(results.contains("\"" + key + "\""), key + " in " + results);
        }
    }
}
