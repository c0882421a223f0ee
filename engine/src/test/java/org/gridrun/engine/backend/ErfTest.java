package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Erf} against Python's {@code math.erf} on both sides of each branch, and the GELU's two closed forms. */
class ErfTest {
    /** (u, math.erf(u)) pairs printed by Python 3.11, around 0, 2 (the series' end) and 6 (where ±1 starts). */
    private static final double[][] PYTHON = {{-7, -1.0}, {-3.3, -0.9999969422902035}, {-2.0, -0.9953222650189527},
        {-1.99, -0.995111413199617}, {-0.7, -0.6778011938374184}, {-0.001, -0.0011283787909692365}, {0, 0.0},
        {1e-8, 1.1283791670955126e-08}, {0.3, 0.3286267594591274}, {1, 0.8427007929497149},
        {1.5, 0.9661051464753108}, {1.999, 0.9953015566513705}, {2, 0.9953222650189527}, {2.5, 0.999593047982555},
        {4, 0.9999999845827421}, {5.99, 1.0}, {6.5, 1.0}};

    @Test
    void erfMatchesPythonsToTwelveDigits() {
        for (double[] p : PYTHON) {
            assertEquals(p[1], Erf.erf(p[0]), 5e-12 * Math.max(1e-3, Math.abs(p[1])), "erf(" + p[0] + ")");
        }
    }

    @Test
    void normalCdfIsHalfAtZeroAndSymmetric() {
        assertEquals(0.5, Erf.normalCdf(0), 0);
        for (double v = -9; v <= 9; v += 0.37) {
            assertEquals(1, Erf.normalCdf(v) + Erf.normalCdf(-v), 1e-15, "v = " + v);
        }
        // PyTorch's F.gelu(torch.tensor(1.0, dtype=torch.float64)) = 0.841344746068543
        assertEquals(0.841344746068543, Erf.normalCdf(1), 1e-12);
    }
}
