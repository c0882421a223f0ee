package org.gridrun.engine.data;

import java.io.IOException;
import java.nio.file.Path;
import org.gridrun.engine.run.BadFileException;

/**
 * An image file of a data set that cannot be decoded: corrupt, cut short, of an unknown format, or unreadable.
 *
 * <p>The message names the file, says what is wrong and how to go on: remove or replace the file, or set
 * {@code skip_bad_images: true} so that such images are replaced by the next readable one and counted.
 */
public final class BadImageException extends BadFileException {
    private static final long serialVersionUID = 1L;

    /** The failure to decode {@code file}, caused by {@code cause} (whose message says what is wrong). */
    public BadImageException(Path file, IOException cause) {
        super(file, null, "cannot decode the image (" + cause.getMessage() + ")", "remove or replace the file, or set "
                + "skip_bad_images: true to skip unreadable images", cause);
    }

    /** What is wrong with the file, without its name or the advice. */
    public String reason() {
        return getCause().getMessage();
    }
}
