package org.gridrun.engine.backend;

import dev.ludovic.netlib.blas.BLAS;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The netlib BLAS instance, loaded once with its "failed to load implementation" warnings silenced.
 *
 * <p>netlib picks native JNI BLAS when {@code libblas.so.3} is present, else the Java Vector API version when the JVM
 * runs with {@code --add-modules jdk.incubator.vector}, else plain Java. Each fallback logs a WARNING through
 * java.util.logging; the logger is held here at OFF so the lines never reach a job's log.
 */
final class NetlibBlas {
    /** Held so the logger, and its level, outlive garbage collection. */
    private static final Logger SILENCED = silence();
    private static final BLAS INSTANCE = BLAS.getInstance();

    private NetlibBlas() {
    }

    private static Logger silence() {
        Logger logger = Logger.getLogger("dev.ludovic.netlib.blas.InstanceBuilder");
        logger.setLevel(Level.OFF);
        return logger;
    }

    static BLAS instance() {
        return INSTANCE;
    }

    /** Which implementation netlib loaded, in words. */
    static String describe() {
        String impl = INSTANCE.getClass().getSimpleName();
        return switch (impl) {
            case "JNIBLAS" -> "netlib JNIBLAS (native)";
            case "VectorBLAS" -> "netlib VectorBLAS (Java Vector API)";
            default -> "netlib JavaBLAS (" + impl + ")";
        };
    }
}
