package org.gridrun.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories that only their owner may read: what gridrun creates for a store and its runs on a machine
 * that many people share.
 *
 * <p>Only what gridrun creates is restricted (directories {@code rwx------}, files {@code rw-------}); a directory
 * that exists already keeps the permissions its owner gave it, which is how a user shares results with a group.
 * File systems without POSIX permissions are left to their own rules.
 */
public final class OwnerOnly {
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private OwnerOnly() {
    }

    /** Creates {@code dir} and its missing parents, each readable by its owner only; an existing one is kept. */
    public static void createDirectories(Path dir) {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            try {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
            } catch (UnsupportedOperationException notPosix) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Makes {@code file} readable and writable by its owner only, where the file system has POSIX permissions. */
    public static void restrict(Path file) {
        try {
            Files.setPosixFilePermissions(file, FILE);
        } catch (UnsupportedOperationException | IOException notPosixOrGone) {
            // nothing to restrict: the file system has no such permissions, or the file went away
        }
    }

    /**
     * Writes {@code text} to {@code file}, which must not exist, as a whole or not at all: readers never see it
     * half-written, and of two processes creating it at once exactly one succeeds.
     *
     * @throws FileAlreadyExistsException when {@code file} exists
     */
    public static void createFile(Path file, String text) throws IOException {
        Path tmp = tempFile(file);
        try {
            Files.writeString(tmp, text);
            try {
                Files.createLink(file, tmp);
            } catch (UnsupportedOperationException noHardLinks) {
                if (Files.exists(file)) {
                    throw new FileAlreadyExistsException(file.toString());
                }
                Files.move(tmp, file);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** An empty file beside {@code file}, readable by its owner only from the start. */
    private static Path tempFile(Path file) throws IOException {
        String prefix = "." + file.getFileName();
        try {
            return Files.createTempFile(file.getParent(), prefix, ".tmp", PosixFilePermissions.asFileAttribute(FILE));
        } catch (UnsupportedOperationException notPosix) {
            return Files.createTempFile(file.getParent(), prefix, ".tmp");
        }
    }
}
