package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * An image file that cannot be decoded: missing, unreadable, truncated, or not an image. The message names the file,
 * says why and what to do.
 */
public final class BadImageException extends UncheckedIOException {
    private final Path file;

    BadImageException(Path file, String why, IOException cause) {
        super(file + ": cannot read this image: " + why + "; remove or replace the file, or set skip_bad_images: "
                + "true to skip unreadable images (they are counted and reported at the end)",
                cause == null ? new IOException(why) : cause);
        this.file = file;
    }

    /** The file that could not be decoded. */
    public Path file() {
        return file;
    }
}
