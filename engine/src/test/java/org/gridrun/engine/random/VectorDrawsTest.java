package org.gridrun.engine.random;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link CounterRng#uniforms16} and {@code uniforms32}, vectors or not, against the draws one at a time, at every offset and length. */
class VectorDrawsTest {
    @Test
    void uniformsAreTheScalarDrawsPiecesAtEveryOffset() {
        CounterRng rng = new CounterRng(42, 7);
        int[] out = new int[300];
        for (long first : new long[] {0, 1, 123_456_789_012L, -5}) {
            for (int from = 0; from < 9; from++) {
                for (int count : new int[] {0, 1, 3, 4, 31, 32, 33, 64, 65, 127, 131, 300}) {
                    java.util.Arrays.fill(out, -1);
                    rng.uniforms16(first, from, out, count);
                    for (int j = 0; j < count; j++) {
                        int e = from + j;
                        long draw = rng.at(first + e / 4);
                        int expected = (int) (draw >>> (48 - 16 * (e % 4))) & 0xFFFF;
                        assertEquals(expected, out[j], "first " + first + ", value " + e + ", count " + count);
                    }
                    for (int j = count; j < out.length; j++) {
                        assertEquals(-1, out[j], "wrote past count " + count);
                    }
                    rng.uniforms32(first, from, out, count);
                    for (int j = 0; j < count; j++) {
                        int e = from + j;
                        long draw = rng.at(first + e / 2);
                        int expected = (int) (e % 2 == 0 ? draw >>> 32 : draw);
                        assertEquals(expected, out[j], "32-bit: first " + first + ", value " + e + ", count " + count);
                    }
                }
            }
        }
    }
}
