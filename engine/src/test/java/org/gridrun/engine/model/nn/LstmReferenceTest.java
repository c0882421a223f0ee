package org.gridrun.engine.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LSTM language model is PyTorch's {@code RNNModel} with tied weights ({@code lstm_reference.py}: nn.Embedding,
 * nn.LSTM, nn.Linear sharing the embedding's weight, in double precision): from the same weights and a random
 * carried state, after one window whose final state is carried (detached) into a second, PyTorch computes the same
 * loss, the same gradient of every parameter and the same final state. Skipped, saying so, without torch.
 */
class LstmReferenceTest {
    private final CpuBackend backend = new CpuBackend();

    @TempDir
    Path tmp;

    @BeforeAll
    static void probe() throws InterruptedException {
        TorchReferenceTest.probe();
    }

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void lstmMatchesPyTorch() throws Exception {
        assumeTrue(TorchReferenceTest.python != null,
                "python3 cannot import torch (apt-get install python3-torch): no PyTorch reference");
        int vocabulary = 23;
        int units = 12;
        int layers = 3;
        int sequences = 4;
        int steps = 5;
        Network model = Models.lstm(backend, vocabulary, units, layers, 0);
        model.initialize(7);
        int rows = sequences * steps;
        CounterRng rng = new CounterRng(11, 0);
        float[] state = new float[sequences * model.carriedState()];
        for (int i = 0; i < state.length; i++) {
            state[i] = (float) (rng.nextDouble() - 0.5);
        }
        float[][] windows = new float[4][rows];
        for (float[] w : windows) {
            for (int i = 0; i < rows; i++) {
                w[i] = rng.nextInt(vocabulary);
            }
        }
        Tensor stateT = backend.allocate(sequences, model.carriedState());
        backend.upload(state, 0, stateT);
        Tensor x = backend.allocate(rows, 1);
        Tensor y = backend.allocate(rows, 1);
        Tensor gradient = backend.allocate(1, model.parameterCount());
        double loss;
        try (var ws = model.newWorkspace(rows)) {
            ws.carry(stateT);
            backend.upload(windows[0], 0, x);
            backend.upload(windows[1], 0, y);
            model.evaluate(ws, x, y);
            backend.upload(windows[2], 0, x);
            backend.upload(windows[3], 0, y);
            loss = model.forward(ws, x, y);
            model.backward(ws, gradient);
        }
        float[] ours = download(gradient);
        TorchReferenceTest.write(tmp.resolve("params.f32"), download(model.parameters()));
        TorchReferenceTest.write(tmp.resolve("state.f32"), state);
        String[] names = {"x1", "y1", "x2", "y2"};
        for (int i = 0; i < 4; i++) {
            TorchReferenceTest.write(tmp.resolve(names[i] + ".f32"), windows[i]);
        }
        Files.writeString(tmp.resolve("meta.txt"), String.format(Locale.ROOT, "%d %d %d %d %d", vocabulary, units,
                layers, sequences, steps));
        Files.write(tmp.resolve("layout.txt"), model.layout().tensors().stream().map(t -> t.name() + " "
                + IntStream.of(t.shape()).mapToObj(Integer::toString).collect(Collectors.joining("x"))).toList());
        Path script = tmp.resolve("lstm_reference.py");
        try (InputStream in = getClass().getResourceAsStream("lstm_reference.py")) {
            Files.copy(in, script);
        }
        Process p = new ProcessBuilder(TorchReferenceTest.python, script.toString(), tmp.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "PyTorch reference timed out");
        assertEquals(0, p.exitValue(), output);

        double reference = Double.parseDouble(Files.readString(tmp.resolve("loss.txt")).trim());
        assertEquals(reference, loss, 1e-5 * Math.abs(reference), "loss");
        float[] theirs = TorchReferenceTest.read(tmp.resolve("grad.f32"), ours.length);
        List<String> off = new ArrayList<>();
        double worst = 0;
        for (TensorLayout.Tensor t : model.layout().tensors()) {
            double error = relativeError(ours, theirs, t.offset(), t.size());
            worst = Math.max(worst, error);
            if (error > 1e-4) {
                off.add(t.name() + ": relative error " + error);
            }
        }
        System.out.printf(Locale.ROOT, "lstm vs PyTorch: loss %.7f vs %.7f, worst gradient relative error %.2e%n",
                loss, reference, worst);
        assertTrue(off.isEmpty(), "gradients that differ from PyTorch's: " + off);
        float[] carried = download(stateT);
        float[] expected = TorchReferenceTest.read(tmp.resolve("state_out.f32"), carried.length);
        assertTrue(relativeError(carried, expected, 0, carried.length) < 1e-5, "carried state differs from PyTorch's");
    }

    private float[] download(Tensor t) {
        float[] out = new float[t.size()];
        backend.download(t, out, 0);
        return out;
    }

    /** ‖ours − theirs‖ / ‖theirs‖ over {@code [offset, offset + size)}. */
    static double relativeError(float[] ours, float[] theirs, int offset, int size) {
        double diff = 0;
        double norm = 0;
        for (int i = offset; i < offset + size; i++) {
            diff += (ours[i] - theirs[i]) * (double) (ours[i] - theirs[i]);
            norm += theirs[i] * (double) theirs[i];
        }
        return Math.sqrt(diff / Math.max(norm, 1e-30));
    }
}
