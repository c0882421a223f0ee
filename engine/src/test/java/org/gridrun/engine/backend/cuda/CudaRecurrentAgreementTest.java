package org.gridrun.engine.backend.cuda;

import static org.gridrun.engine.backend.TestTensors.gaussian;
import static org.gridrun.engine.backend.TestTensors.tensor;
import static org.gridrun.engine.backend.TestTensors.values;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.BiConsumer;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.model.nn.Models;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The recurrent kernels (recurrent.cu through CudaRecurrent) and the LSTM language model built on them against the CPU
 * backend. The embedding's copies and its in-order sums are exact; the cell's σ and tanh come from the platform's
 * double-precision {@code exp} on each side (Java's and the GPU's or glibc's, each within an ulp of the exact value),
 * so after rounding to float they may differ in the last bit: the cell is compared to 4 float ulps, and the model's
 * gradients to the tolerance of the other models' agreement tests.
 */
class CudaRecurrentAgreementTest {
    /** Rows × units of the cell: one value, a ragged few, more than one block of 256 threads. */
    private static final int[][] CELLS = {{1, 1}, {3, 5}, {17, 40}};

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void embeddingAndItsBackwardPassAgreeExactly(GpuTarget target) {
        // 9 rows: one thread a column; 700 rows over 23 ids: 23 threads a column, each id's rows summed in order
        int[][] shapes = {{7, 300, 9}, {23, 70, 700}};
        for (int[] shape : shapes) {
            embeddingAgrees(target, shape[0], shape[1], shape[2]);
        }
        assertEquals(1, CudaRecurrent.embeddingParts(9, 7));
        assertEquals(23, CudaRecurrent.embeddingParts(700, 23));
        assertEquals(64, CudaRecurrent.embeddingParts(1920, 33_278));
    }

    private static void embeddingAgrees(GpuTarget target, int v, int e, int m) {
        Random rng = new Random(3);
        float[] table = gaussian(rng, v * e);
        float[] ids = new float[m];
        for (int i = 0; i < m; i++) {
            ids[i] = i % 3 == 0 ? 2 : rng.nextInt(v);
        }
        float[] dy = gaussian(rng, m * e);
        for (int i = 0; i < dy.length; i += 5) {
            dy[i] *= 1e4f;  // magnitudes that show a changed order of a row's sum
        }
        BiConsumer<Backend, float[][]> op = (b, out) -> {
            Tensor t = tensor(b, v, e, table);
            Tensor i = tensor(b, m, 1, ids);
            Tensor rows = b.allocate(m, e);
            b.embedding(t, i, rows);
            out[0] = values(b, rows);
            Tensor d = tensor(b, m, e, dy);
            b.embeddingBackward(d, i, t);
            out[1] = values(b, t);
        };
        float[][] cpu = run(new CpuBackend(), op);
        try (Backend cuda = target.backend()) {
            float[][] gpu = run(cuda, op);
            assertArrayEquals(cpu[0], gpu[0], "embedding rows, " + m + " of them");
            assertArrayEquals(cpu[1], gpu[1], "table plus the scattered gradient of " + m + " rows");
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void theLstmCellAndItsBackwardPassAgree(GpuTarget target) {
        for (int[] shape : CELLS) {
            int b = shape[0];
            int h = shape[1];
            Random rng = new Random(b * 31 + h);
            float[] gates = gaussian(rng, b * 4 * h);
            for (int i = 0; i < gates.length; i += 7) {
                gates[i] *= 30;
            }
            float[] cPrev = gaussian(rng, b * h);
            float[] dh = gaussian(rng, b * h);
            float[] dc = gaussian(rng, b * h);
            BiConsumer<Backend, float[][]> op = (be, out) -> {
                Tensor g = tensor(be, b, 4 * h, gates);
                Tensor cp = tensor(be, b, h, cPrev);
                Tensor c = be.allocate(b, h);
                Tensor hh = be.allocate(b, h);
                be.lstmCell(g, cp, c, hh);
                out[0] = values(be, g);
                out[1] = values(be, c);
                out[2] = values(be, hh);
                Tensor dht = tensor(be, b, h, dh);
                Tensor dct = tensor(be, b, h, dc);
                Tensor dg = be.allocate(b, 4 * h);
                be.lstmCellBackward(g, cp, c, dht, dct, dg);
                out[3] = values(be, dg);
                out[4] = values(be, dct);
                // In place, as the LSTM layer runs it.
                be.copy(tensor(be, b, h, dc), dct);
                be.lstmCellBackward(g, cp, c, dht, dct, g);
                out[5] = values(be, g);
            };
            float[][] cpu = run(new CpuBackend(), op);
            try (Backend cuda = target.backend()) {
                float[][] gpu = run(cuda, op);
                String[] names = {"activations", "c", "h", "dGates", "dcPrev", "dGates in place"};
                for (int k = 0; k < names.length; k++) {
                    assertClose(cpu[k], gpu[k], b + "x" + h + " " + names[k]);
                }
                assertArrayEquals(gpu[3], gpu[5], "in place and apart give the same bits");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void lstmLanguageModelGradientsAgreeWithTheCpu(GpuTarget target) {
        float[] cpu;
        float[] gpu;
        try (Backend b = new CpuBackend()) {
            cpu = gradient(b);
        }
        try (Backend b = target.backend()) {
            gpu = gradient(b);
        }
        double scale = 0;
        double worst = 0;
        for (int i = 0; i < cpu.length; i++) {
            scale = Math.max(scale, Math.abs(cpu[i]));
        }
        for (int i = 0; i < cpu.length; i++) {
            worst = Math.max(worst, Math.abs(cpu[i] - gpu[i]) / scale);
        }
        System.out.println(target + ": lstm 2x16, vocabulary 31, 3 sequences x 4 steps x 2 windows: worst gradient "
                + "difference " + worst + " of the largest");
        assertTrue(scale > 0 && worst < 1e-5, "worst gradient difference " + worst + " of the largest " + scale);
    }

    /** The gradient of the second of two windows of a small LSTM model, the state carried between them. */
    private static float[] gradient(Backend backend) {
        Model model = Models.lstm(backend, 31, 16, 2, 0.3);
        model.initialize(5);
        Random rng = new Random(9);
        int rows = 12;
        Tensor state = backend.allocate(3, model.carriedState());
        Tensor x = backend.allocate(rows, 1);
        Tensor y = backend.allocate(rows, 1);
        Tensor g = backend.allocate(1, model.parameterCount());
        try (Model.Workspace ws = model.newWorkspace(rows)) {
            ws.carry(state);
            for (int window = 0; window < 2; window++) {
                float[] ids = new float[rows];
                float[] next = new float[rows];
                for (int i = 0; i < rows; i++) {
                    ids[i] = rng.nextInt(31);
                    next[i] = rng.nextInt(31);
                }
                backend.upload(ids, 0, x);
                backend.upload(next, 0, y);
                ws.reseed(window);
                model.forward(ws, x, y);
                model.backward(ws, g);
            }
        }
        return values(backend, g);
    }

    private static float[][] run(Backend backend, BiConsumer<Backend, float[][]> op) {
        float[][] out = new float[6][];
        try (backend) {
            op.accept(backend, out);
        }
        return out;
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            float tolerance = 4 * Math.ulp(Math.max(Math.abs(expected[i]), Float.MIN_NORMAL));
            assertTrue(Math.abs(expected[i] - actual[i]) <= tolerance, what + ": element " + i + " is " + actual[i]
                    + ", the CPU's " + expected[i]);
        }
    }
}
