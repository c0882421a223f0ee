package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.plan.TrainerKeySchema;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The grids shipped in the repository's {@code grids/} folder validate against the trainer's real schema, and the
 * quick start is the grid the README and the issue describe.
 */
class ShippedGridsTest {
    private static final Path GRIDS = Path.of("..", "grids");

    @Test
    void everyShippedGridValidatesAgainstTheTrainer() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(GRIDS)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "grids/*.yaml exist");
        for (Path file : files) {
            assertFalse(GridFile.load(file, new TrainerKeySchema()).expandAll().isEmpty(), file.toString());
        }
    }

    @Test
    void theQuickStartIsFullPrecisionAgainstFourQuantizersAtThreeBitsWithTheVarianceMeasuredOverTwoSeeds() {
        List<Experiment> experiments = GridFile.load(GRIDS.resolve("quickstart.yaml"), new TrainerKeySchema())
                .expand("quickstart");
        assertEquals(List.of("qs_000_method_none,seed_1", "qs_001_method_none,seed_2",
                "qs_002_method_qsgd,seed_1", "qs_003_method_qsgd,seed_2", "qs_004_method_nuq,seed_1",
                "qs_005_method_nuq,seed_2", "qs_006_method_alq,seed_1", "qs_007_method_alq,seed_2",
                "qs_008_method_amq,seed_1", "qs_009_method_amq,seed_2"),
                experiments.stream().map(Experiment::name).toList());
        for (Experiment e : experiments) {
            assertEquals(4L, e.params().get("ngpu"), e.name());
            assertEquals(3L, e.params().get("bits"), e.name());
            assertTrue((Long) e.params().get("gvar_log_iter") > 0, e.name() + " measures the variance");
            assertEquals("fashion-mnist", e.params().get("dataset"), e.name());
        }
    }

    /** What {@code grid-run list WHAT} prints; it must exit 0. */
    private static String list(String what) {
        StringWriter out = new StringWriter();
        CommandLine cli = GridRun.commandLine();
        cli.setOut(new PrintWriter(out, true));
        assertEquals(0, cli.execute("list", what));
        return out.toString();
    }

    @Test
    void listKeysKeepsItsColumnsAlignedPastTheLongestKey() {
        String text = list("keys");
        String[] lines = text.split("\n");
        assertTrue(lines.length > 50 && text.contains("concurrent_workers"), text);
        int column = lines[0].indexOf(" default ");
        for (String line : lines) {
            assertEquals(column, line.indexOf(" default "), line);
        }
    }

    @Test
    void listCompressorsShowsEachMethodWithItsParametersAndAggregation() {
        String text = list("compressors");
        assertTrue(text.contains("qsgd") && text.contains("all-gather"), text);
        assertTrue(text.contains("none") && text.contains("all-reduce"), text);
        assertTrue(text.contains("bucket_size") && text.contains("8192"), text);
        assertTrue(onCuda(text, "qsgd").contains("encodes on the GPU with these defaults"), text);
        assertTrue(onCuda(text, "alq").contains("encodes on the GPU"), text);
        assertTrue(onCuda(text, "nuq").contains("encodes on the GPU"), text);
        assertTrue(onCuda(text, "trn").contains("encodes on the GPU"), text);
        assertTrue(onCuda(text, "topk").contains("encodes on the GPU"), text);
        assertTrue(onCuda(text, "randomk").contains("encodes on the GPU"), text);
        assertTrue(onCuda(text, "dgc").contains("encodes on the GPU"), text);
        assertTrue(onCuda(text, "threshold").contains("encodes on the GPU"), text);
        // PowerSGD runs its whole step on the GPU, no codec
        assertTrue(onCuda(text, "powersgd").contains("runs its whole step on the GPU"), text);
        for (String method : List.of("fp16", "bf16", "fp8", "signsgd", "efsignsgd", "signum", "smaq")) {
            assertTrue(onCuda(text, method).contains("encodes on the GPU with these defaults"), method + ": " + text);
        }
        // jointsq's range-coded width maps are coded on the GPU too (allocation: search, the default)
        assertTrue(onCuda(text, "jointsq").contains("encodes on the GPU with these defaults"), text);
        // a method without a device codec stays on the host
        assertTrue(onCuda(text, "acsgd").contains("on the host"), text);
    }

    /** The "on cuda" line of {@code method}'s entry in {@code list compressors} (the first entry starts the text). */
    private static String onCuda(String text, String method) {
        int entry = text.startsWith(method + " ") ? 0 : text.indexOf("\n" + method + " ");
        assertTrue(entry >= 0, method + " is listed");
        int line = text.indexOf("on cuda:", entry);
        return text.substring(line, text.indexOf('\n', line));
    }
}
