package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@link Compressor} promises, checked for every registered method with its default parameters: payloads of
 * exactly {@code ceil(bits / 8)} bytes with side bits among them, a run determined by seed and stream, {@code copy}
 * and {@code reset} giving fresh state, and a restored instance encoding what the saved one would have.
 */
class CompressorContractTest {
    private static final int N = 3000;
    private static final TensorLayout LAYOUT = TensorLayout.of(List.of("w", "b"),
            List.of(new int[] {50, 59}, new int[] {50}));

    static Stream<String> methods() {
        return Compressors.names().stream();
    }

    private static Compressor worker(String method, long stream) {
        Compressor c = Compressors.create(method, Map.of(), 5).copy(stream);
        c.bind(LAYOUT);
        return c;
    }

    /** Encodes and decodes {@code steps} gradients, returning each payload's bytes. */
    private static List<byte[]> run(Compressor c, int from, int steps) {
        List<byte[]> payloads = new ArrayList<>();
        float[] out = new float[N];
        for (int t = from; t < from + steps; t++) {
            Payload p = c.encode(TestGradients.gaussian(N, t), 0, N);
            assertEquals((p.bits() + 7) / 8, p.bytes().length, c + ": bytes of step " + t);
            assertTrue(p.sideBits() >= 0 && p.sideBits() <= p.bits(), c + ": side bits " + p.sideBits());
            assertEquals(p.bits() - p.sideBits(), p.valueBits());
            assertEquals(N, p.elements());
            payloads.add(p.copy().bytes());
            c.decode(p, out, 0);
        }
        return payloads;
    }

    private static void assertSame(List<byte[]> expected, List<byte[]> actual, String what) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), what + ", payload " + i);
        }
    }

    @ParameterizedTest
    @MethodSource("methods")
    void payloadsAreExactAndDeterminedBySeedAndStream(String method) {
        List<byte[]> first = run(worker(method, 3), 0, 3);
        assertSame(first, run(worker(method, 3), 0, 3), method + " on the same stream");
        Compressor used = worker(method, 3);
        run(used, 0, 3);
        used.reset();
        assertSame(first, run(used, 0, 3), method + " after reset");
        Compressor copied = used.copy(3);
        copied.bind(LAYOUT);
        assertSame(first, run(copied, 0, 3), method + ": a copy of a used instance starts fresh");
    }

    @ParameterizedTest
    @MethodSource("methods")
    void aRestoredInstanceContinuesAsTheSavedOne(String method) throws IOException {
        Compressor saved = worker(method, 4);
        run(saved, 0, 2);
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        saved.saveState(new DataOutputStream(state));
        List<byte[]> next = run(saved, 2, 2);
        Compressor restored = worker(method, 4);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        assertSame(next, run(restored, 2, 2), method + " restored");
    }
}
