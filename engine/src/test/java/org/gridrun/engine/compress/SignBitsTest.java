package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.gridrun.engine.simd.Simd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sign bits against their definition, bit by bit: 1 exactly where {@code v < 0f} (not for −0, NaN of either sign),
 * written from a bit position off a byte boundary and read back there, on lengths with and without a tail, with the
 * Vector API and without.
 */
class SignBitsTest {
    @AfterEach
    void restore() {
        Vectors.enabled = Simd.enabled();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void eachBitIsTheValuesSignAndReadsBackAsItsSide(boolean vectors) {
        Vectors.enabled = vectors;
        float[] v = TestGradients.gaussian(32 * SignBits.CHUNK * 2 + 45, 5);
        v[0] = -0f;
        v[1] = Float.NaN;
        v[2] = Float.intBitsToFloat(0xFFC00001);
        v[3] = Float.NEGATIVE_INFINITY;
        v[4] = -Float.MIN_VALUE;
        v[5] = 0f;
        for (int offset : new int[] {0, 3, 32}) {
            for (int length : new int[] {7, 32, 64 + 9, v.length - 2}) {
                byte[] bytes = new byte[(offset + length + 7) / 8 + 8];
                BitPacker packer = new BitPacker().reset(bytes, offset);
                SignBits.write(packer, v, 2, 2 + length);
                packer.flush();
                assertEquals(offset + length, packer.position());
                for (int i = 0; i < length; i++) {
                    int bit = offset + i;
                    assertEquals(v[2 + i] < 0f ? 1 : 0, bytes[bit >>> 3] >>> (bit & 7) & 1,
                            "value " + (2 + i) + " (" + v[2 + i] + "), offset " + offset + ", length " + length);
                }
                float[] out = new float[length + 1];
                SignBits.read(new BitReader().reset(bytes, offset), out, 1, length, -2.5f, 0.75f);
                for (int i = 0; i < length; i++) {
                    assertEquals(v[2 + i] < 0f ? -2.5f : 0.75f, out[1 + i], "value " + (2 + i));
                }
                assertEquals(0f, out[0]);
            }
        }
    }
}
