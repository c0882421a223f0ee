package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class Log2Test {
    /** {@code z − floor(z)} rounds to 1 here, which indexed one past the table (s2fp8's shift and its decode table). */
    @Test
    void theExponentialOfATinyNegativeIsOne() {
        for (double z : new double[] {-1e-300, -Double.MIN_VALUE, -0x1.0p-55, -0x1.0p-54, -0x1.0p-53, -0.0, 0}) {
            assertEquals(1.0, Log2.exp2(z), 2 * Math.ulp(1.0), "exp2 of " + z);
        }
    }

    @Test
    void theExponentialAndTheLogarithmAgreeWithMath() {
        for (double z = -1074.5; z < 1023; z += 0.37) {
            double expected = Math.pow(2, z);
            assertEquals(expected, Log2.exp2(z), 4 * Math.ulp(expected), "exp2 of " + z);
        }
        for (float x = Float.MIN_NORMAL; x < Float.MAX_VALUE / 3; x *= 2.9f) {
            double expected = Math.log(x) / Math.log(2);
            assertEquals(expected, Log2.log2(x), 4 * Math.ulp(expected) + 1e-15, "log2 of " + x);
        }
    }
}
