package org.gridrun.engine.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Fashion-MNIST (Zalando Research, MIT licence): 28×28 grey images of clothing in 10 classes.
 *
 * <p>Where the files come from, first match wins:
 * <ol>
 *   <li>the {@code data_dir} given, when not empty: it must hold the four files (an error names each missing one);</li>
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
    public static final String ENV = "GRIDRUN_DATA_DIR";
    /** Where Debian's {@code dataset-fashion-mnist} puts the full set. */
    public static final Path SYSTEM_DIR = Path.of("/usr/share/datasets/fashion-mnist");
    /** The four file names, in the order train images, train labels, test images, test labels. */
    public static final List<String> FILES = List.of("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
            "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz");
    public static final float MEAN = 0.2860f;
    public static final float STD = 0.3530f;
    public static final int CLASSES = 10;

    private static final String SUBSET = "fashion-mnist-subset/";
    private static final String INSTALL = "apt-get install dataset-fashion-mnist";

    private FashionMnist() {
    }

    /** Loads the train and test sets from where {@code dataDir} (may be empty) resolves to. */
    public static TrainTestData load(String dataDir) {
        return load(locate(dataDir, System.getenv(ENV), SYSTEM_DIR));
    }

    /** The one-line source description {@link #load} would give, reading only the files' headers. */
    public static String describeSource(String dataDir) {
        Path dir = locate(dataDir, System.getenv(ENV), SYSTEM_DIR);
        return dir == null ? subsetSource(6000, 2000)
                : dirSource(dir, Idx.count(file(dir, FILES.get(1))), Idx.count(file(dir, FILES.get(3))));
    }

    /** The subset shipped inside gridrun, whatever is installed. */
    public static TrainTestData subset() {
        Dataset train = dataset("fashion-mnist train", resource(FILES.get(0), 3), resource(FILES.get(1), 1));
        Dataset test = dataset("fashion-mnist test", resource(FILES.get(2), 3), resource(FILES.get(3), 1));
        return new TrainTestData(train, test, subsetSource(train.size(), test.size()));
    }

    static TrainTestData load(Path dir) {
        if (dir == null) {
            return subset();
        }
        Dataset train = dataset("fashion-mnist train", Idx.read(file(dir, FILES.get(0)), 3),
                Idx.read(file(dir, FILES.get(1)), 1));
        Dataset test = dataset("fashion-mnist test", Idx.read(file(dir, FILES.get(2)), 3),
                Idx.read(file(dir, FILES.get(3)), 1));
        return new TrainTestData(train, test, dirSource(dir, train.size(), test.size()));
    }

    /**
     * The directory to read, or null for the shipped subset.
     *
     * <p>A given directory (or {@code GRIDRUN_DATA_DIR}) that lacks a file fails, naming each missing file, where it
     * looked and how to install the full set.
     */
    static Path locate(String dataDir, String envDir, Path systemDir) {
        if (dataDir != null && !dataDir.isBlank()) {
            return requireFiles(Path.of(dataDir), "data_dir " + dataDir);
        }
        if (envDir != null && !envDir.isBlank()) {
            return requireFiles(Path.of(envDir), ENV + "=" + envDir);
        }
        return missing(systemDir).isEmpty() ? systemDir : null;
    }

    private static Path requireFiles(Path dir, String what) {
        List<String> missing = missing(dir);
        if (!missing.isEmpty()) {
            String message = what + ": Fashion-MNIST files missing in " + dir.toAbsolutePath() + ": "
                    + String.join(", ", missing) + " (also looked for them without .gz); " + INSTALL
                    + " installs the full set in " + SYSTEM_DIR + ", or leave data_dir empty to use it or the "
                    + "subset shipped with gridrun";
            throw new UncheckedIOException(message, new NoSuchFileException(dir.resolve(missing.get(0)).toString()));
        }
        return dir;
    }

    private static List<String> missing(Path dir) {
        List<String> missing = new ArrayList<>();
        for (String name : FILES) {
            if (!Files.isRegularFile(file(dir, name))) {
                missing.add(name);
            }
        }
        return missing;
    }

    private static Path file(Path dir, String gzName) {
        Path gz = dir.resolve(gzName);
        Path plain = dir.resolve(gzName.substring(0, gzName.length() - 3));
        return Files.isRegularFile(gz) || !Files.isRegularFile(plain) ? gz : plain;
    }

    private static IdxData resource(String name, int dimensions) {
        try (InputStream in = FashionMnist.class.getResourceAsStream(SUBSET + name)) {
            if (in == null) {
                throw new IllegalStateException("the Fashion-MNIST subset is missing from the class path (" + SUBSET
                        + name + "); rebuild gridrun, or " + INSTALL);
            }
            return Idx.read(in, "classpath:" + SUBSET + name, dimensions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read classpath:" + SUBSET + name + ": " + e.getMessage(), e);
        }
    }

    private static Dataset dataset(String name, IdxData images, IdxData labels) {
        if (images.count() != labels.count()) {
            throw new IllegalArgumentException(name + ": " + images.count() + " images but " + labels.count()
                    + " labels");
        }
        byte[] raw = labels.data();
        int[] classes = new int[raw.length];
        for (int i = 0; i < raw.length; i++) {
            classes[i] = raw[i] & 0xFF;
        }
        return new Dataset(name, images.data(), classes, images.itemSize(), CLASSES, MEAN, STD);
    }

    private static String dirSource(Path dir, int train, int test) {
        String kind = train == 60000 && test == 10000 ? "full set" : "set";
        return "Fashion-MNIST " + kind + " from " + dir + " (" + train + " train / " + test + " test)";
    }

    private static String subsetSource(int train, int test) {
        return "Fashion-MNIST subset shipped with gridrun (" + train + " train / " + test + " test); " + INSTALL
                + " for the full set";
    }
}
