package org.gridrun.engine.data;

/**
 * How a data set decoded from files is read.
 *
 * @param threads       the threads decoding and augmenting images (the config's {@code data_threads}), at least 1
 * @param skipBadImages whether an unreadable image is skipped and counted ({@code skip_bad_images}) rather than a
 *                      failure naming the file
 */
public record DataOptions(int threads, boolean skipBadImages) {
    /** One thread, bad images fail: what tests and in-memory data sets use. */
    public static final DataOptions DEFAULT = new DataOptions(1, false);

    public DataOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("data_threads must be at least 1, found " + threads);
        }
    }
}
