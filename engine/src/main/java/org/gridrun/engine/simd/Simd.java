package org.gridrun.engine.simd;

/**
 * Whether the Vector API kernels run in this JVM: only when it was started with
 * {@code --add-modules jdk.incubator.vector} (jobs and grid-run's compute commands are), its vectors are at least
 * {@value #MIN_BITS} bits wide (AVX2 or AVX-512: with 128-bit vectors, JDK 17 compiles no 64-bit lane multiply and the
 * generator ran 14 times slower than the scalar one), and it is not turned off with {@code -Dgridrun.simd=false}.
 *
 * <p>Every kernel that has a vector path keeps a scalar one with exactly the same results, so the choice changes
 * speed only. The check never throws; a class that uses the Vector API is loaded only after it said yes.
 */
public final class Simd {
    private static final String MODULE = "jdk.incubator.vector";
    /** The narrowest vectors the kernels run on. */
    static final int MIN_BITS = 256;
    private static final boolean LOADED = ModuleLayer.boot().findModule(MODULE).isPresent();
    private static final boolean OFF = "false".equals(System.getProperty("gridrun.simd"));
    private static final boolean ENABLED = !OFF && LOADED && Shape.bits() >= MIN_BITS;

    private Simd() {
    }

    /** Whether the JVM was started with the Vector API module. */
    public static boolean moduleLoaded() {
        return LOADED;
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
        if (!LOADED) {
            return "scalar (start the JVM with --add-modules " + MODULE + " for the Vector API)";
        }
        return OFF ? "scalar (-Dgridrun.simd=false)"
                : "scalar (the Vector API's " + Shape.bits() + "-bit vectors are narrower than " + MIN_BITS + ")";
    }

    /** Loaded only when the module is there. */
    private static final class Shape {
        static int bits() {
            return jdk.incubator.vector.VectorShape.preferredShape().vectorBitSize();
        }
    }
}
