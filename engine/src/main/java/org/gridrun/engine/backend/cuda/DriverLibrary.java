package org.gridrun.engine.backend.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Places JCuda's driver library where JCuda will look for it, completely written, before JCuda first loads it.
 *
 * <p>JCuda copies its native library out of the jar into {@code java.io.tmpdir} under a fixed name when that file
 * does not exist yet, and loads the file when it does. Several jobs starting at once on a fresh GPU node (a local
 * pool, or the tasks of one SLURM script) would then race: one writes while another already loads a half-written
 * file. Here the copy is written under a name of its own and renamed into place, atomically, so JCuda only ever
 * finds a whole file; a file of the wrong size (a copy cut short earlier) is replaced the same way.
 */
final class DriverLibrary {
    /** The file JCuda's loader writes and reads; its version is the {@code jcuda.version} of the poms. */
    static final String FILE = "libJCudaDriver-12.6.0-linux-x86_64.so";

    private DriverLibrary() {
    }

    /** Makes sure {@code java.io.tmpdir} holds a whole copy of the library; problems are left to JCuda to report. */
    static void prepare() {
        Path target = Path.of(System.getProperty("java.io.tmpdir"), FILE);
        try (InputStream in = DriverLibrary.class.getResourceAsStream("/lib/" + FILE)) {
            if (in == null) {
                return;
            }
            byte[] library = in.readAllBytes();
            if (Files.isRegularFile(target) && Files.size(target) == library.length) {
                return;
            }
            Path partial = Files.createTempFile(target.getParent(), FILE, ".part");
            try {
                Files.write(partial, library);
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(partial);
            }
        } catch (IOException | RuntimeException e) {
            // JCuda tries again itself and says what failed.
        }
    }
}
