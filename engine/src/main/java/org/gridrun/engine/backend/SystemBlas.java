package org.gridrun.engine.backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The system's {@code libblas.so.3}, the library netlib's JNI BLAS opens by default, found without loading it.
 *
 * <p>Looked up in {@code LD_LIBRARY_PATH}, then the usual library folders, following links to the real file: on
 * Debian and Ubuntu an alternatives link leads to {@code openblas-pthread/}, {@code openblas-openmp/} (OpenBLAS) or
 * {@code blas/} (the reference BLAS). The dynamic linker's own search may differ; what netlib did open is read back
 * from {@code /proc/self/maps} ({@link NetlibBlas#describe}).
 */
final class SystemBlas {
    private static final String NAME = "libblas.so.3";

    private SystemBlas() {
    }

    /** The real file of the first {@code libblas.so.3} found, or null; never throws. */
    static Path find() {
        for (String folder : folders()) {
            try {
                Path file = Path.of(folder, NAME);
                if (Files.exists(file)) {
                    return file.toRealPath();
                }
            } catch (IOException | RuntimeException e) {
                // an unreadable or odd folder: try the next
            }
        }
        return null;
    }

    /** Whether {@code file} is an optimised BLAS by its path (OpenBLAS, MKL or BLIS), not the reference one. */
    static boolean optimized(Path file) {
        if (file == null) {
            return false;
        }
        String path = file.toString().toLowerCase(Locale.ROOT);
        return path.contains("openblas") || path.contains("mkl") || path.contains("blis");
    }

    private static List<String> folders() {
        List<String> folders = new ArrayList<>();
        String variable = System.getenv("LD_LIBRARY_PATH");
        if (variable != null) {
            for (String folder : variable.split(":")) {
                if (!folder.isBlank()) {
                    folders.add(folder);
                }
            }
        }
        String multiarch = System.getProperty("os.arch").equals("amd64") ? "x86_64" : System.getProperty("os.arch");
        for (String root : List.of("/usr/local/lib", "/usr/lib", "/lib")) {
            folders.add(root + "/" + multiarch + "-linux-gnu");
            folders.add(root + "64");
            folders.add(root);
        }
        return folders;
    }
}
