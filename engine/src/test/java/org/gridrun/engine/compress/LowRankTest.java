package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** PowerSGD's products against their definitions, to the bit: each dot one chain of float additions in column order. */
class LowRankTest {
    @Test
    void mTimesQIsEachRowsDotInColumnOrder() {
        for (int rows : new int[] {1, 3, 4, 5, 8, 11}) {
            int cols = 37;
            int r = 3;
            // magnitudes 2^-20 to 2^19: another order of the additions rounds differently
            float[] m = scaled(TestGradients.gaussian(5 + rows * cols, rows));
            float[] q = scaled(TestGradients.gaussian(2 + r * cols, 100 + rows));
            float[] p = new float[rows * r];
            LowRank.times(m, 5, rows, cols, q, 2, r, p);
            for (int i = 0; i < rows; i++) {
                for (int k = 0; k < r; k++) {
                    float dot = 0f;
                    for (int j = 0; j < cols; j++) {
                        dot += m[5 + i * cols + j] * q[2 + k * cols + j];
                    }
                    assertEquals(Float.floatToRawIntBits(dot), Float.floatToRawIntBits(p[k * rows + i]),
                            "rows " + rows + ", P[" + i + "][" + k + "]");
                }
            }
        }
    }

    private static float[] scaled(float[] v) {
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.scalb(v[i], i * 7919 % 40 - 20);
        }
        return v;
    }
}
