package org.gridrun.engine.data;

import java.nio.file.Path;
import java.util.List;

/**
 * Fashion-MNIST (Zalando Research, MIT licence): 28×28 grey images of clothing in 10 classes.
 *
 * <p>Where the files come from, first match wins:
 * <ol>
 *   <li>the {@code data_dir} given, when not empty: it, or its subdirectory {@code fashion-mnist}, must hold the four
 *       files (an error names each missing one);</li>
 *   <li>the directory in the environment variable {@code GRIDRUN_DATA_DIR}, when set: same rule;</li>
 *   <li>{@code /usr/share/datasets/fashion-mnist}, where Debian's {@code dataset-fashion-mnist} installs the full
 *       set, when all four files are there;</li>
 *   <li>a real subset shipped inside gridrun: the first 6000 training and the first 2000 test images.</li>
 * </ol>
 * Each file is looked for under its {@code .gz} name, then without the suffix. Images are normalised with the
 * standard Fashion-MNIST statistics: {@code (x/255 − 0.2860)/0.3530}.
 */
public final class FashionMnist {
    /** The environment variable naming a directory with the four files. */
    public static final String ENV = DataLocation.ENV;
    /** Where Debian's {@code dataset-fashion-mnist} puts the full set. */
    public static final Path SYSTEM_DIR = Path.of("/usr/share/datasets/fashion-mnist");
    /** The four file names, in the order train images, train labels, test images, test labels. */
    public static final List<String> FILES = IdxImages.FILES;
    public static final float MEAN = 0.2860f;
    public static final float STD = 0.3530f;
    public static final int CLASSES = IdxImages.CLASSES;

    private static final String INSTALL = "apt-get install dataset-fashion-mnist";

    /** The data set behind this class's methods, also registered in {@link DataSets} as {@code fashion-mnist}. */
    static final IdxImages SET = new IdxImages("fashion-mnist", "Fashion-MNIST", MEAN, STD, SYSTEM_DIR,
            INSTALL + " installs the full set in " + SYSTEM_DIR + ", or leave data_dir empty to use it or the "
                    + "subset shipped with gridrun", "fashion-mnist-subset/", INSTALL);

    private FashionMnist() {
    }

    /** Loads the train and test sets from where {@code dataDir} (may be empty) resolves to. */
    public static TrainTestData load(String dataDir) {
        return SET.load(dataDir, System.getenv(ENV), DataOptions.DEFAULT);
    }

    /** The one-line source description {@link #load} would give, reading only the files' headers. */
    public static String describeSource(String dataDir) {
        return SET.describeSource(dataDir, System.getenv(ENV));
    }

    /** The subset shipped inside gridrun, whatever is installed. */
    public static TrainTestData subset() {
        return SET.subset();
    }

    static TrainTestData load(Path dir) {
        return SET.load(dir);
    }

    /**
     * The directory to read, or null for the shipped subset.
     *
     * <p>A given directory (or {@code GRIDRUN_DATA_DIR}) that lacks a file fails, naming each missing file, where it
     * looked and how to install the full set.
     */
    static Path locate(String dataDir, String envDir, Path systemDir) {
        return SET.locate(dataDir, envDir, systemDir);
    }
}
