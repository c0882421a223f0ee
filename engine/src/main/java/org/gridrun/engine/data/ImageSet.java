package org.gridrun.engine.data;

import java.nio.file.Path;

/**
 * One data set that {@link DataSets} can load by name: where its files are and how they are read.
 *
 * <p>{@code dataDir} is the config's {@code data_dir} (may be empty) and {@code envDir} the value of
 * {@code GRIDRUN_DATA_DIR} (may be null); both are passed in so tests need not touch the environment.
 */
interface ImageSet {
    /**
     * Loads the train and test sets (or, for a set decoded from files, indexes them, reading images as they are
     * used with {@code options}); missing or malformed files fail with a message that names them.
     */
    TrainTestData load(String dataDir, String envDir, DataOptions options);

    /** {@link #load(String, String, DataOptions)} with the default options. */
    default TrainTestData load(String dataDir, String envDir) {
        return load(dataDir, envDir, DataOptions.DEFAULT);
    }

    /**
     * The directory {@link #load} would read, failing as it fails when it is missing; null when the set would come
     * from files shipped inside gridrun.
     */
    Path directory(String dataDir, String envDir);

    /** The source line {@link #load} would give, reading no more than the files' headers or sizes. */
    String describeSource(String dataDir, String envDir);
}
