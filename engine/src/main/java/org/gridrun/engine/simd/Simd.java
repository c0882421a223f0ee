package org.gridrun.engine.simd;

/**
 * Whether the Vector API kernels run in this JVM: only when it was started with
 * {@code --add-modules jdk.incubator.vector} (jobs and grid-run's compute commands are), and not turned off with
 * {@code -Dgridrun.simd=false}.
 *
 * <p>Every kernel that has a vector path keeps a scalar one with exactly the same results, so the choice changes
 * speed only. The check never throws; a class that uses the Vector API is loaded only after it said yes.
 */
public final class Simd {
    private static final String MODULE = "jdk.incubator.vector";
    private static final boolean ENABLED = !"false".equals(System.getProperty("gridrun.simd"))
            && ModuleLayer.boot().findModule(MODULE).isPresent();

    private Simd() {
    }

    /** Whether the vector kernels run. */
    public static boolean enabled() {
        return ENABLED;
    }

    /** The path in words, for {@code grid-run list backends}. */
    public static String describe() {
        if (ENABLED) {
            return "Vector API, " + Shape.bits() + "-bit vectors";
        }
        return "scalar (start the JVM with --add-modules " + MODULE + " for the Vector API)";
    }

    /** Loaded only when the module is there. */
    private static final class Shape {
        static int bits() {
            return jdk.incubator.vector.VectorShape.preferredShape().vectorBitSize();
        }
    }
}
