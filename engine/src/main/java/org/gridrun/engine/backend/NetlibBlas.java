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

/**
 * The netlib BLAS instance the CPU backend runs, chosen once per process, with netlib's "failed to load
 * implementation" warnings silenced.
 *
 * <p>{@code -Dgridrun.blas} picks it: {@code auto} (the default) takes the system {@code libblas.so.3} when it is an
 * optimised one (OpenBLAS, MKL, BLIS: {@link SystemBlas}), else the OpenBLAS bundled in the jar
 * ({@link BundledOpenBlas}), else netlib's own choice (a reference {@code libblas.so.3}, the Java Vector API
 * version, plain Java); {@code system} takes netlib's own choice, {@code bundled} the bundled OpenBLAS (Java where
 * it cannot load), {@code vector} netlib's Java version (VectorBLAS with the Vector API module). Native libraries
 * are reached through netlib's JNI BLAS, which hands Java arrays to them without copying.
 *
 * <p>A {@code libblas.so.3} the process mapped that is Debian's reference BLAS (the {@code libblas3} package, in a
 * {@code blas/} folder: a triple loop) is named as such by {@link #describe}.
 */
final class NetlibBlas {
    /** netlib's JNI library opens this file in place of {@code libblas.so.3} when the property is set. */
    static final String NATIVE_PATH_PROPERTY = "dev.ludovic.netlib.blas.nativeLibPath";
    /** Held so the logger, and its level, outlive garbage collection. */
    private static final Logger SILENCED = silence();
    private static final String ASKED = System.getProperty("gridrun.blas", "auto");
    private static final Selection SELECTED = select(ASKED);
    private static final BLAS INSTANCE = SELECTED.blas();
    private static final boolean REFERENCE = INSTANCE instanceof NativeBLAS && referenceMapped();

    private NetlibBlas() {
    }

    /** What was chosen: the instance, where its library came from, and its thread count (0: BLAS's default). */
    private record Selection(BLAS blas, String source, int threads) {
    }

    private static Logger silence() {
        Logger logger = Logger.getLogger("dev.ludovic.netlib.blas.InstanceBuilder");
        logger.setLevel(Level.OFF);
        return logger;
    }

    private static Selection select(String asked) {
        return switch (asked) {
            case "vector" -> new Selection(JavaBLAS.getInstance(), "asked by -Dgridrun.blas=vector", 0);
            case "system" -> system("asked by -Dgridrun.blas=system");
            case "bundled" -> bundled("asked by -Dgridrun.blas=bundled");
            case "auto" -> automatic("");
            default -> automatic("; -Dgridrun.blas=" + asked + " is not auto, system, bundled or vector");
        };
    }

    private static Selection automatic(String note) {
        Path file = SystemBlas.find();
        if (SystemBlas.optimized(file)) {
            return system("auto: the system's libblas.so.3 is an optimised BLAS" + note);
        }
        return bundled((file == null ? "auto: no system libblas.so.3" : "auto: the system's libblas.so.3 is not an "
                + "optimised BLAS") + note);
    }

    private static Selection system(String why) {
        return new Selection(BLAS.getInstance(), why, environmentThreads());
    }

    private static Selection bundled(String why) {
        BundledOpenBlas.Loaded loaded = BundledOpenBlas.load();
        if (!loaded.ok()) {
            return new Selection(JavaBLAS.getInstance(), why + "; the bundled OpenBLAS did not load ("
                    + loaded.failure() + ")", 0);
        }
        System.setProperty(NATIVE_PATH_PROPERTY, loaded.file().toString());
        return new Selection(BLAS.getInstance(), "bundled org.bytedeco:openblas, " + why, loaded.threads());
    }

    /** {@code OPENBLAS_NUM_THREADS} as a count, or 0 where unset or not a count (OpenBLAS then takes every core). */
    private static int environmentThreads() {
        String variable = System.getenv("OPENBLAS_NUM_THREADS");
        if (variable == null) {
            return 0;
        }
        int threads = BundledOpenBlas.threads(variable);
        return variable.strip().equals(Integer.toString(threads)) ? threads : 0;
    }

    static BLAS instance() {
        return INSTANCE;
    }

    /** Whether {@code blas} is this process's native BLAS running one thread per call. */
    static boolean singleThreadedNative(BLAS blas) {
        return blas instanceof NativeBLAS && blas == INSTANCE && SELECTED.threads() == 1;
    }

    /** Whether the products run on the reference BLAS. */
    static boolean referenceInUse() {
        return REFERENCE;
    }

    /** Which implementation runs, from which file, on how many threads, and why it was chosen. */
    static String describe() {
        String impl = INSTANCE.getClass().getSimpleName();
        String text = switch (impl) {
            case "JNIBLAS" -> "netlib JNIBLAS (native: " + mappedLibrary() + ", " + threadsText() + ")";
            case "VectorBLAS" -> "netlib VectorBLAS (Java Vector API)";
            default -> "netlib JavaBLAS (" + impl + ")";
        };
        text += "; " + SELECTED.source();
        if (REFERENCE) {
            text += "; libblas.so.3 is the reference BLAS: run with -Dgridrun.blas=bundled for the bundled OpenBLAS";
        }
        return text;
    }

    private static String threadsText() {
        int threads = SELECTED.threads();
        return threads == 0 ? "OpenBLAS's default threads" : threads + (threads == 1 ? " thread" : " threads");
    }

    /** The BLAS library file the process mapped (the bundled one or a {@code libblas.so}), or "libblas.so.3". */
    private static String mappedLibrary() {
        String bundled = System.getProperty(NATIVE_PATH_PROPERTY);
        if (bundled != null) {
            return bundled;
        }
        Path file = mappedBlas();
        return file == null ? "libblas.so.3" : file.toString();
    }

    /**
     * Whether a {@code libblas.so.3} this process mapped resolves into a {@code blas/} folder, where Debian and Ubuntu
     * keep the reference implementation (OpenBLAS's lives in {@code openblas-pthread/} and the like). False wherever
     * that cannot be read; never throws.
     */
    static boolean referenceMapped() {
        Path file = mappedBlas();
        Path folder = file == null ? null : file.getParent();
        return folder != null && folder.getFileName() != null && folder.getFileName().toString().equals("blas");
    }

    /** The {@code libblas.so} file in Linux's {@code /proc/self/maps}, or null; never throws. */
    private static Path mappedBlas() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/maps"));
            for (String line : lines) {
                int slash = line.indexOf('/');
                if (slash >= 0 && line.contains("libblas.so")) {
                    return Path.of(line.substring(slash).strip());
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
