package org.gridrun.engine.data;

import java.io.IOException;

/**
 * Turns the bytes of an image file into RGB pixels: greyscale is replicated into the three channels and CMYK or
 * YCCK JPEGs are converted as Pillow converts them (its Adobe convention: stored values are inverted inks).
 *
 * <p>Implementations are safe to call from several threads at once; each keeps its decoding state per thread. The
 * returned image may use a buffer of the calling thread (see {@link RgbImage}). A file the decoder cannot read, or
 * a JPEG cut short, fails with an {@link IOException} whose message says what is wrong with it (the caller names
 * the file).
 */
interface ImageDecoder {
    /** Decodes the first {@code length} bytes of {@code bytes}, a JPEG or PNG file (recognised by its content). */
    RgbImage decode(byte[] bytes, int length) throws IOException;

    /** What decodes, for logs, e.g. {@code libjpeg-turbo 2.1.5 via /usr/share/java/turbojpeg.jar}. */
    String description();
}
