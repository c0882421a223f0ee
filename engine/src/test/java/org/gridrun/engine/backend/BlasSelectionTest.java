package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which BLAS {@code -Dgridrun.blas} selects, each in a fresh JVM, and that the bundled OpenBLAS computes right. */
class BlasSelectionTest {
    @Test
    void bundledOpenBlasLoadsRunsOneThreadAndAgreesWithJava() throws Exception {
        List<String> lines = run("bundled", null);
        String described = lines.get(0);
        assertTrue(described.startsWith("netlib JNIBLAS (native: "), described);
        assertTrue(described.contains("openblas"), described);
        assertTrue(described.contains(", 1 thread)"), described);
        assertTrue(described.contains("bundled org.bytedeco:openblas"), described);
        assertTrue(Double.parseDouble(lines.get(1)) < 1e-5, lines.toString());
    }

    @Test
    void bundledOpenBlasTakesTheThreadsTheEnvironmentGives() throws Exception {
        String described = run("bundled", "2").get(0);
        assertTrue(described.contains(", 2 threads)"), described);
    }

    @Test
    void vectorIsNetlibsJavaBlas() throws Exception {
        List<String> lines = run("vector", null);
        assertFalse(lines.get(0).contains("JNIBLAS"), lines.get(0));
        assertEquals(0.0, Double.parseDouble(lines.get(1)), lines.toString());
    }

    @Test
    void autoTakesAnOptimisedSystemBlasElseTheBundledOne() throws Exception {
        String described = run("auto", null).get(0);
        boolean system = SystemBlas.optimized(SystemBlas.find());
        assertEquals(!system, described.contains("bundled org.bytedeco:openblas"), described);
        assertTrue(described.startsWith("netlib JNIBLAS"), described);
    }

    @Test
    void threadsFollowOpenBlasNumThreadsElseOne() {
        assertEquals(1, BundledOpenBlas.threads(null));
        assertEquals(3, BundledOpenBlas.threads(" 3"));
        assertEquals(1, BundledOpenBlas.threads("0"));
        assertEquals(1, BundledOpenBlas.threads("many"));
    }

    @Test
    void optimisedSystemLibrariesAreKnownByTheirFolder() {
        assertTrue(SystemBlas.optimized(Path.of("/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3")));
        assertFalse(SystemBlas.optimized(Path.of("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3")));
        assertFalse(SystemBlas.optimized(null));
    }

    /** {@link BlasChoiceMain}'s output in a JVM with {@code -Dgridrun.blas=choice} and the given BLAS threads. */
    private static List<String> run(String choice, String threads) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector",
                "-Dgridrun.blas=" + choice, "-cp", System.getProperty("java.class.path"),
                BlasChoiceMain.class.getName());
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        if (threads == null) {
            builder.environment().remove("OPENBLAS_NUM_THREADS");
        } else {
            builder.environment().put("OPENBLAS_NUM_THREADS", threads);
        }
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the JVM did not end");
        assertEquals(0, process.exitValue(), out);
        return out.lines().toList();
    }
}
