package org.gridrun.engine.backend;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.gridrun.engine.simd.Simd;

/**
 * The netlib BLAS instance, loaded once with its "failed to load implementation" warnings silenced.
 *
 * <p>netlib picks native JNI BLAS when {@code libblas.so.3} is present, else the Java Vector API version when the JVM
 * runs with {@code --add-modules jdk.incubator.vector}, else plain Java. Each fallback logs a WARNING through
 * java.util.logging; the logger is held here at OFF so the lines never reach a job's log.
 *
 * <p>When the {@code libblas.so.3} the process mapped is Debian's reference BLAS (the {@code libblas3} package, in a
 * {@code blas/} folder: a triple loop, no OpenBLAS installed), {@link #describe} says so, and
 * {@code -Dgridrun.blas=vector} (with the Vector API module) takes netlib's VectorBLAS instead.
 */
final class NetlibBlas {
    /** Held so the logger, and its level, outlive garbage collection. */
    private static final Logger SILENCED = silence();
    private static final BLAS LOADED = BLAS.getInstance();
    /** Whether the native BLAS netlib loaded is the reference implementation, which {@link #INSTANCE} then avoids. */
    private static final boolean REFERENCE = LOADED instanceof NativeBLAS && referenceMapped();
    /**
     * VectorBLAS in place of the reference BLAS, only when asked ({@code -Dgridrun.blas=vector}): it trained resnet20
     * twice as fast and matched PyTorch's float64 ResNet-50 gradients where the reference BLAS did not, but each short
     * job pays its compilation (ChaosTest's 16 tiny trainers went past their time limit), so it is not the default.
     */
    private static final boolean VECTOR = "vector".equals(System.getProperty("gridrun.blas"));
    private static final BLAS INSTANCE = REFERENCE && VECTOR && Simd.moduleLoaded() ? JavaBLAS.getInstance() : LOADED;

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

    /** Whether the products run on the reference BLAS (loaded and not replaced). */
    static boolean referenceInUse() {
        return REFERENCE && INSTANCE == LOADED;
    }

    /** Which implementation runs, in words, and why when the native one was passed over or is the reference. */
    static String describe() {
        String impl = INSTANCE.getClass().getSimpleName();
        String text = switch (impl) {
            case "JNIBLAS" -> "netlib JNIBLAS (native)";
            case "VectorBLAS" -> "netlib VectorBLAS (Java Vector API)";
            default -> "netlib JavaBLAS (" + impl + ")";
        };
        if (REFERENCE) {
            text += INSTANCE == LOADED ? "; libblas.so.3 is the reference BLAS: install OpenBLAS, or run with "
                    + "-Dgridrun.blas=vector (and the Vector API module) for VectorBLAS"
                    : "; in place of libblas.so.3, the reference BLAS (install OpenBLAS for native speed)";
        }
        return text;
    }

    /**
     * Whether a {@code libblas.so.3} this process mapped (Linux's {@code /proc/self/maps}) resolves into a
     * {@code blas/} folder, where Debian and Ubuntu keep the reference implementation (OpenBLAS's lives in
     * {@code openblas-pthread/} and the like). False wherever that cannot be read; never throws.
     */
    static boolean referenceMapped() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/maps"));
            for (String line : lines) {
                int slash = line.indexOf('/');
                if (slash >= 0 && line.contains("libblas.so")) {
                    Path file = Path.of(line.substring(slash).strip());
                    Path folder = file.getParent();
                    if (folder != null && folder.getFileName() != null
                            && folder.getFileName().toString().equals("blas")) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
