package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The GPU check ({@code scripts/gpu-check.sh run}) runs every test class that has a {@link GpuTarget#DEVICE} case: a
 * class its default class-name pattern missed would pass CI on the emulator and never meet a GPU.
 */
class GpuCheckCoverageTest {
    private static final Path ROOT = PtxTest.ROOT;
    /**
     * How a test runs a case on the GPU: parameterised by every target, naming the device, or asking whether one is
     * required (a class that opens only {@code GpuTarget.EMULATOR} has nothing for the GPU check to run).
     */
    private static final Pattern DEVICE_CASE = Pattern.compile(
            "GpuTarget\\.class|GpuTarget\\.DEVICE|GpuTarget \\w+[,)]|GpuTarget\\.cudaRequired");

    /** The script's default pattern of test class names ({@code all_tests}), as a Java pattern. */
    private static Pattern defaultTests() throws IOException {
        Matcher m = Pattern.compile("local all_tests='([^']+)'").matcher(Files.readString(ROOT.resolve(
                "scripts/gpu-check.sh")));
        assertTrue(m.find(), "scripts/gpu-check.sh has no all_tests='...' line");
        return Pattern.compile(m.group(1));
    }

    @Test
    void everyTestClassWithADeviceCaseRunsInTheGpuCheck() throws IOException {
        Pattern tests = defaultTests();
        Path dir = ROOT.resolve("engine/src/test/java/org/gridrun/engine/backend/cuda");
        List<String> withDevice;
        try (Stream<Path> files = Files.list(dir)) {
            withDevice = files.filter(f -> f.getFileName().toString().endsWith("Test.java"))
                    .filter(f -> !f.getFileName().toString().startsWith(GpuCheckCoverageTest.class.getSimpleName()))
                    .filter(f -> DEVICE_CASE.matcher(read(f)).find())
                    .map(f -> "org.gridrun.engine.backend.cuda." + f.getFileName().toString().replace(".java", ""))
                    .sorted().toList();
        }
        assertTrue(withDevice.size() > 20, "found only " + withDevice + " in " + dir);
        assertEquals(List.of(), withDevice.stream().filter(c -> !tests.matcher(c).matches()).toList(),
                "classes with a DEVICE case that gpu-check.sh's all_tests pattern leaves out");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(file + ": " + e.getMessage(), e);
        }
    }
}
