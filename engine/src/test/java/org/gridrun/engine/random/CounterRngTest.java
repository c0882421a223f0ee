package org.gridrun.engine.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class CounterRngTest {
    @Test
    void sameSeedAndStreamGiveTheSameSequence() {
        CounterRng a = new CounterRng(42, 7);
        CounterRng b = new CounterRng(42, 7);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.nextLong(), b.nextLong());
        }
        assertEquals(100, a.counter());
    }

    @Test
    void streamsAndSeedsDiffer() {
        assertNotEquals(new CounterRng(42, 0).nextLong(), new CounterRng(42, 1).nextLong());
        assertNotEquals(new CounterRng(42, 0).nextLong(), new CounterRng(43, 0).nextLong());
    }

    @Test
    void seekRestoresAPosition() {
        CounterRng rng = new CounterRng(5, 3);
        for (int i = 0; i < 10; i++) {
            rng.nextLong();
        }
        long eleventh = rng.nextLong();
        CounterRng restored = new CounterRng(5, 3, 10);
        assertEquals(eleventh, restored.nextLong());
        rng.seek(10);
        assertEquals(eleventh, rng.nextLong());
    }

    @Test
    void savedStateContinuesTheSequenceOnlyOnItsOwnStream() throws IOException {
        CounterRng rng = new CounterRng(5, 3);
        for (int i = 0; i < 17; i++) {
            rng.nextLong();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        rng.saveState(new DataOutputStream(bytes));
        assertEquals(24, bytes.size());
        long next = rng.nextLong();

        CounterRng restored = new CounterRng(5, 3);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(17, restored.counter());
        assertEquals(next, restored.nextLong());

        CounterRng other = new CounterRng(5, 4);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> other.restoreState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
        assertEquals("saved random state is of seed 5, stream 3; this generator has seed 5, stream 4",
                e.getMessage());
    }

    @Test
    void uniformFloatsHaveMeanAHalfAndStayInRange() {
        CounterRng rng = new CounterRng(1, 0);
        int n = 200_000;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            float u = rng.nextFloat();
            assertTrue(u >= 0f && u < 1f);
            sum += u;
        }
        // The mean of n uniforms has standard deviation sqrt(1/12/n) ≈ 0.00065; allow 5 of them.
        assertEquals(0.5, sum / n, 5 * Math.sqrt(1.0 / 12 / n));
    }

    @Test
    void nextIntCoversItsRange() {
        CounterRng rng = new CounterRng(9, 9);
        int[] counts = new int[7];
        for (int i = 0; i < 70_000; i++) {
            counts[rng.nextInt(7)]++;
        }
        for (int c : counts) {
            assertEquals(10_000, c, 500);
        }
    }
}
