package org.gridrun.engine.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.engine.run.BadFileException;

/**
 * A data set stored as the four IDX files of MNIST's layout: 28×28 grey images in 10 classes, normalised with one
 * mean and standard deviation.
 *
 * <p>Fashion-MNIST and MNIST differ only in their statistics, where they are installed and how to get them, and
 * whether a subset ships inside gridrun for when nothing is installed.
 */
final class IdxImages implements ImageSet {
    /** The four file names, in the order train images, train labels, test images, test labels. */
    static final List<String> FILES = List.of("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
            "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz");
    static final int CLASSES = 10;

    private final String name;
    private final String title;
    private final float mean;
    private final float std;
    private final DataLocation location;
    private final String subset;
    private final String subsetHint;

    /**
     * @param name       the data set's config name, e.g. {@code mnist}
     * @param title      its name in messages, e.g. {@code MNIST}
     * @param mean       the normalisation mean on the [0, 1] scale
     * @param std        the normalisation standard deviation on the [0, 1] scale
     * @param systemDir  where a system package installs it; null when there is none
     * @param howToGet   how to get the files, ending the missing-files message
     * @param subset     the class-path folder of a shipped subset, relative to this class; null when there is none
     * @param subsetHint what the subset's source line suggests for the full set
     */
    IdxImages(String name, String title, float mean, float std, Path systemDir, String howToGet, String subset,
            String subsetHint) {
        this.name = name;
        this.title = title;
        this.mean = mean;
        this.std = std;
        this.location = new DataLocation(title, FILES, List.of(name), systemDir, howToGet);
        this.subset = subset;
        this.subsetHint = subsetHint;
    }

    DataLocation location() {
        return location;
    }

    @Override
    public TrainTestData load(String dataDir, String envDir, DataOptions options) {
        return load(directory(dataDir, envDir));
    }

    @Override
    public Path directory(String dataDir, String envDir) {
        return locate(dataDir, envDir, location.systemDir());
    }

    @Override
    public String describeSource(String dataDir, String envDir) {
        Path dir = directory(dataDir, envDir);
        return dir == null ? subsetSource(6000, 2000)
                : dirSource(dir, Idx.count(file(dir, 1)), Idx.count(file(dir, 3)));
    }

    /** The directory to read, or null for the shipped subset; fails when neither is there. */
    Path locate(String dataDir, String envDir, Path systemDir) {
        return subset == null ? location.require(dataDir, envDir, systemDir)
                : location.locate(dataDir, envDir, systemDir);
    }

    /** Reads the four files of {@code dir}, or the shipped subset when {@code dir} is null. */
    TrainTestData load(Path dir) {
        if (dir == null) {
            return subset();
        }
        Dataset train = dataset("train", Idx.read(file(dir, 0), 3), Idx.read(file(dir, 1), 1), file(dir, 0),
                file(dir, 1));
        Dataset test = dataset("test", Idx.read(file(dir, 2), 3), Idx.read(file(dir, 3), 1), file(dir, 2),
                file(dir, 3));
        return new TrainTestData(train, test, dirSource(dir, train.size(), test.size()));
    }

    /** The subset shipped inside gridrun. */
    TrainTestData subset() {
        Dataset train = dataset("train", resource(0, 3), resource(1, 1), resourceName(0), resourceName(1));
        Dataset test = dataset("test", resource(2, 3), resource(3, 1), resourceName(2), resourceName(3));
        return new TrainTestData(train, test, subsetSource(train.size(), test.size()));
    }

    private static Path file(Path dir, int index) {
        return DataLocation.file(dir, FILES.get(index));
    }

    private Path resourceName(int index) {
        return Path.of("classpath:" + subset + FILES.get(index));
    }

    private IdxData resource(int index, int dimensions) {
        String path = subset + FILES.get(index);
        try (InputStream in = IdxImages.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the " + title + " subset is missing from the class path (" + path
                        + "); rebuild gridrun, or " + subsetHint);
            }
            return Idx.read(in, "classpath:" + path, dimensions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read classpath:" + path + ": " + e.getMessage(), e);
        }
    }

    /** The split of {@code images} and {@code labels}, read from {@code imageFile} and {@code labelFile}. */
    private Dataset dataset(String split, IdxData images, IdxData labels, Path imageFile, Path labelFile) {
        String setName = name + " " + split;
        if (images.count() != labels.count()) {
            throw new BadFileException(labelFile, null, "holds " + labels.count() + " labels but " + imageFile
                    + " holds " + images.count() + " images", "download both files of the split again");
        }
        byte[] raw = labels.data();
        int[] classes = new int[raw.length];
        for (int i = 0; i < raw.length; i++) {
            classes[i] = raw[i] & 0xFF;
            if (classes[i] >= CLASSES) {
                throw new BadFileException(labelFile, "byte " + (8 + i), "label " + i + " is " + classes[i]
                        + ", outside [0, " + CLASSES + ")", "download the file again");
            }
        }
        int[] dims = images.dims();
        return new Dataset(setName, images.data(), classes, new ImageShape(dims[1], dims[2], 1), CLASSES,
                new float[] {mean}, new float[] {std});
    }

    private String dirSource(Path dir, int train, int test) {
        String kind = train == 60000 && test == 10000 ? "full set" : "set";
        return title + " " + kind + " from " + dir + " (" + train + " train / " + test + " test)";
    }

    private String subsetSource(int train, int test) {
        return title + " subset shipped with gridrun (" + train + " train / " + test + " test); " + subsetHint
                + " for the full set";
    }
}
