package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed PTX is what the kernel sources compile to, every source has its module, and no kernel asks for more
 * static shared memory than every GPU gives a block (48 KiB).
 */
class PtxTest {
    /** The checkout's root, from the engine module's directory (Maven) or the root itself. */
    static final Path ROOT = root();
    private static final Path SOURCES = ROOT.resolve("engine/src/main/cuda");
    private static final Path COMMITTED = ROOT.resolve("engine/src/main/resources/org/gridrun/engine/backend/cuda");

    private static Path root() {
        Path here = Path.of("").toAbsolutePath();
        return Files.isDirectory(here.resolve("engine/src/main/cuda")) ? here : here.getParent();
    }

    private static List<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix))
                    .map(n -> n.substring(0, n.length() - suffix.length())).sorted().toList();
        }
    }

    @Test
    void everySourceHasACommittedModuleThatTheBackendLoads() throws IOException {
        List<String> sources = names(SOURCES, ".cu");
        assertEquals(sources, names(COMMITTED, ".ptx"), "run scripts/build-ptx.sh after adding or removing a .cu");
        assertEquals(new TreeSet<>(sources), new TreeSet<>(JCudaGpu.MODULES.stream().filter(sources::contains)
                .toList()), "JCudaGpu.MODULES must list every module");
    }

    @Test
    void committedPtxIsWhatTheSourcesCompileTo(@TempDir Path out) throws Exception {
        Assumptions.assumeTrue(onPath("nvcc"), "nvcc is not on the PATH: the committed PTX cannot be checked here");
        Process p = new ProcessBuilder(ROOT.resolve("scripts/build-ptx.sh").toString(), out.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "nvcc took too long");
        assertEquals(0, p.exitValue(), log);
        for (String name : names(SOURCES, ".cu")) {
            assertArrayEquals(Files.readAllBytes(COMMITTED.resolve(name + ".ptx")),
                    Files.readAllBytes(out.resolve(name + ".ptx")),
                    name + ".ptx differs from what " + name + ".cu compiles to: run scripts/build-ptx.sh");
        }
    }

    /**
     * Every committed module assembles for the oldest GPU the PTX targets and for a Hopper GPU, with the lowered ISA
     * version in its header (what the driver's JIT does on the GPU machine), and no kernel spills to local memory.
     */
    @Test
    void theCommittedPtxAssemblesForTuringAndHopper(@TempDir Path out) throws Exception {
        Assumptions.assumeTrue(onPath("ptxas"), "ptxas is not on the PATH: the PTX cannot be assembled here");
        for (String name : names(COMMITTED, ".ptx")) {
            for (String arch : List.of("sm_75", "sm_90")) {
                String log = KernelRegisters.assemble(COMMITTED.resolve(name + ".ptx"), arch,
                        out.resolve(name + ".cubin"));
                assertTrue(!log.matches("(?s).*[1-9]\\d* bytes spill (stores|loads).*"), name + " spills on " + arch
                        + ": " + log);
            }
        }
    }

    @Test
    void noKernelNeedsMoreThan48KiBOfStaticSharedMemory() throws IOException {
        Pattern entry = Pattern.compile("\\.entry\\s+(\\w+)\\(");
        Pattern shared = Pattern.compile("\\.shared\\s+\\.align\\s+\\d+\\s+\\.\\w+\\s+[\\w$]+\\[(\\d+)\\]");
        List<String> tooLarge = new ArrayList<>();
        for (String name : names(COMMITTED, ".ptx")) {
            // nvcc declares each kernel's shared arrays inside its body, after its .entry line.
            String kernel = null;
            long bytes = 0;
            for (String line : Files.readAllLines(COMMITTED.resolve(name + ".ptx"))) {
                Matcher e = entry.matcher(line);
                if (e.find()) {
                    kernel = e.group(1);
                    bytes = 0;
                }
                Matcher s = shared.matcher(line);
                if (s.find() && kernel != null) {
                    bytes += Long.parseLong(s.group(1));
                    if (bytes > 48 * 1024) {
                        tooLarge.add(kernel + " (" + bytes + " bytes)");
                    }
                }
            }
        }
        assertEquals(List.of(), tooLarge);
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
