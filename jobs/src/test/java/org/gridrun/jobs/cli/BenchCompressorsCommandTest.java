package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.gridrun.engine.backend.Backends;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code grid-run bench compressors} prints well-formed rows; no assertion depends on how fast anything ran. */
class BenchCompressorsCommandTest {
    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = GridRun.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        assertEquals(0, cli.execute(args), err.toString());
        return out.toString().split("\n");
    }

    @Test
    void csvHasTheCopyAndEachMethodAsked() {
        String[] lines = run("bench", "compressors", "--method", "qsgd", "--method", "trn", "--size", "50000",
                "--repeat", "1", "--csv", "--no-torch");
        assertEquals("method,gbps,ratio_to_copy", lines[0]);
        assertTrue(lines[1].matches("copy,\\d+\\.\\d{4},1\\.0000"), lines[1]);
        assertEquals(4, lines.length);
        assertTrue(lines[2].matches("qsgd,\\d+\\.\\d{4},\\d+\\.\\d{4}"), lines[2]);
        assertTrue(lines[3].matches("trn,\\d+\\.\\d{4},\\d+\\.\\d{4}"), lines[3]);
    }

    @Test
    void pytorchQsgdRowFollowsQsgd() {
        assumeTrue(TorchBench.find() != null, "python3 cannot import torch");
        String[] lines = run("bench", "compressors", "--method", "qsgd", "--size", "50001", "--repeat", "1",
                "--csv");
        assertEquals(4, lines.length);
        assertTrue(lines[3].matches("torch_qsgd,\\d+\\.\\d{4},\\d+\\.\\d{4}"), lines[3]);
        String[] table = run("bench", "compressors", "--method", "qsgd", "--size", "50001", "--repeat", "1");
        assertTrue(table[table.length - 1].matches("torch_qsgd .*qsgd is \\d+\\.\\dx it"), table[table.length - 1]);
    }

    @Test
    void onCudaOnlyTheDeviceMethodsAreAcceptedAndAMissingGpuIsNamed() {
        StringWriter err = new StringWriter();
        CommandLine cli = GridRun.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        assertEquals(2, cli.execute("bench", "compressors", "--backend", "cuda", "--method", "powersgd"));
        assertTrue(err.toString().contains("powersgd runs its whole step on the GPU in training, not through the "
                + "device codec") && err.toString().contains("qsgd"), err.toString());
        assertEquals(2, cli.execute("bench", "compressors", "--backend", "cuda", "--method", "acsgd"));
        assertTrue(err.toString().contains("acsgd does not encode on the GPU"), err.toString());
        boolean gpu = Backends.probe().stream().anyMatch(p -> p.name().equals("cuda") && p.available());
        assumeTrue(!gpu, "a GPU is here: the bench runs (gpu-check.sh runs it)");
        StringWriter err2 = new StringWriter();
        cli.setErr(new PrintWriter(err2, true));
        assertEquals(2, cli.execute("bench", "compressors", "--backend", "cuda", "--size", "1000"));
        assertTrue(err2.toString().contains("backend cuda is not available"), err2.toString());
    }
}
