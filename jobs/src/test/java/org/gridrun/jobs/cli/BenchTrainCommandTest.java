package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;

/** {@code grid-run bench train} prints well-formed rows; no assertion depends on how fast anything ran. */
class BenchTrainCommandTest {
    private static String[] run(int expectedExit, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = GridRun.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        assertEquals(expectedExit, cli.execute(args), err.toString());
        return out.toString().split("\n");
    }

    @Test
    void csvWithoutTorchHasAnEmptyTorchColumn() {
        String[] lines = run(0, "bench", "train", "--model", "mlp", "--warmup", "0", "--steps", "2", "--csv",
                "--no-torch");
        assertEquals("model,ms_min,ms_median,torch_ms_min,torch_ms_median,ratio", lines[0]);
        assertEquals(2, lines.length);
        assertTrue(lines[1].matches("mlp,\\d+\\.\\d{3},\\d+\\.\\d{3},,,"), lines[1]);
    }

    @Test
    void csvWithTorchHasARatio() {
        assumeTrue(TorchBench.find() != null, "python3 cannot import torch");
        String[] lines = run(0, "bench", "train", "--model", "mlp", "--warmup", "0", "--steps", "1", "--csv");
        assertTrue(lines[1].matches("mlp(,\\d+\\.\\d{3}){5}"), lines[1]);
    }

    @Test
    void tableNamesEveryModelAsked() {
        String[] lines = run(0, "bench", "train", "--model", "mlp", "--model", "lenet5", "--batch", "4",
                "--warmup", "0", "--steps", "1", "--no-torch");
        assertTrue(lines[0].contains("torch: skipped"), lines[0]);
        assertTrue(lines[2].startsWith("mlp "), lines[2]);
        assertTrue(lines[3].startsWith("lenet5 "), lines[3]);
    }

    @Test
    void imagenetAndWideResnetsRun() {
        String[] lines = run(0, "bench", "train", "--model", "resnet18", "--model", "wrn-16-4", "--batch", "1",
                "--warmup", "0", "--steps", "1", "--csv", "--no-torch");
        assertTrue(lines[1].matches("resnet18,\\d+\\.\\d{3},\\d+\\.\\d{3},,,"), lines[1]);
        assertTrue(lines[2].matches("wrn-16-4,\\d+\\.\\d{3},\\d+\\.\\d{3},,,"), lines[2]);
    }

    @Test
    void minIsAtMostMedian() {
        String[] lines = run(0, "bench", "train", "--model", "mlp", "--batch", "8", "--warmup", "0", "--steps", "3",
                "--csv", "--no-torch");
        String[] cells = lines[1].split(",");
        assertTrue(Double.parseDouble(cells[1]) <= Double.parseDouble(cells[2]), lines[1]);
    }

    @Test
    void unknownModelIsBadInput() {
        run(2, "bench", "train", "--model", "vgg", "--no-torch");
    }

    @Test
    void methodTimesTheTrainersStepWithAndWithoutTheCompressor() {
        String[] lines = run(0, "bench", "train", "--model", "mlp", "--method", "qsgd", "--set", "bits=3",
                "--set", "bucket_size=512", "--workers", "2", "--batch", "8", "--warmup", "1", "--steps", "3");
        assertTrue(lines[0].startsWith("the trainer's whole step on cpu: 2 workers x batch 4, min and median of 3 "
                + "steps after 1 warm-up; qsgd {") && lines[0].contains("bits=3"), lines[0]);
        assertTrue(lines[1].matches("model +none min +none median +qsgd min +qsgd median +ratio"), lines[1]);
        String[] cells = lines[2].trim().split(" +");
        assertEquals("mlp", cells[0]);
        assertTrue(Double.parseDouble(cells[1]) <= Double.parseDouble(cells[2])
                && Double.parseDouble(cells[3]) <= Double.parseDouble(cells[4]), lines[2]);
        assertEquals(Double.parseDouble(cells[4]) / Double.parseDouble(cells[2]), Double.parseDouble(cells[5]), 0.01
                * Double.parseDouble(cells[5]) + 0.006, lines[2]);
    }

    @Test
    void methodRefusesWorkersThatDoNotDivideTheBatchAndBadKeys() {
        run(2, "bench", "train", "--model", "mlp", "--method", "qsgd", "--workers", "3", "--batch", "8");
        run(2, "bench", "train", "--model", "resnet18", "--method", "qsgd");
        run(2, "bench", "train", "--model", "mlp", "--method", "qsgd", "--set", "bits=many", "--steps", "1");
    }

    @Test
    void settingsAreReadAsAGridFileWouldHoldThem() {
        assertEquals(3L, CompressedStepBench.scalar("3"));
        assertEquals(0.5, CompressedStepBench.scalar("0.5"));
        assertEquals(true, CompressedStepBench.scalar("true"));
        assertEquals("alternating", CompressedStepBench.scalar("alternating"));
        assertEquals("a: b", CompressedStepBench.scalar("a: b"));
    }
}
