package org.gridrun.engine.backend;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * The OpenBLAS that ships inside gridrun's jar ({@code org.bytedeco:openblas}, linux-x86_64), for machines without
 * a system one.
 *
 * <p>JavaCPP's {@link Loader} extracts the library and its Fortran runtime into its cache folder
 * ({@code ~/.javacpp/cache} unless {@code org.bytedeco.javacpp.cachedir} says otherwise) and loads them; netlib's
 * JNI BLAS is then pointed at that same file, so the products keep netlib's zero-copy path on Java arrays. Only the
 * BLAS part is loaded (JavaCPP's {@code openblas_nolapack}), which the shaded jar keeps; its LAPACK bindings are
 * left out of it.
 *
 * <p>Threads: OpenBLAS reads {@code OPENBLAS_NUM_THREADS} when it loads, as the system library does; where it is
 * unset the bundled library is set to one thread, gridrun's own choice (see {@code CpuGemm}).
 */
final class BundledOpenBlas {
    private BundledOpenBlas() {
    }

    /** The loaded library's file, after setting its threads; never throws. */
    static Loaded load() {
        try {
            Loader.load(openblas_nolapack.class);
            Path file = libraryFile(Loader.getLoadedLibraries());
            if (file == null) {
                return new Loaded(null, 0, "JavaCPP loaded no libopenblas");
            }
            int threads = threads(System.getenv("OPENBLAS_NUM_THREADS"));
            openblas_nolapack.blas_set_num_threads(threads);
            return new Loaded(file, threads, null);
        } catch (Throwable e) {
            // UnsatisfiedLinkError on a platform whose natives are not in the jar, IO errors from the cache folder
            return new Loaded(null, 0, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** The thread count OpenBLAS takes from {@code OPENBLAS_NUM_THREADS}, or 1 where that is unset or not a count. */
    static int threads(String variable) {
        try {
            int threads = variable == null ? 1 : Integer.parseInt(variable.strip());
            return threads > 0 ? threads : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** The OpenBLAS file among JavaCPP's loaded libraries (name to path), or null. */
    static Path libraryFile(Map<String, String> loaded) {
        for (Map.Entry<String, String> entry : loaded.entrySet()) {
            if (entry.getKey().startsWith("openblas") && entry.getValue() != null) {
                Path file = Path.of(entry.getValue());
                if (Files.isRegularFile(file)) {
                    return file;
                }
            }
        }
        return null;
    }

    /** The outcome: the library's file and thread count, or why it did not load. */
    record Loaded(Path file, int threads, String failure) {
        boolean ok() {
            return file != null;
        }
    }
}
