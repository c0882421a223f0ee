package org.gridrun.engine.data;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CIFAR-10 and CIFAR-100 (Krizhevsky, 2009) from their binary archives: 32×32 colour images, 50000 for training and
 * 10000 for testing, stored channels-last and normalised per channel with the standard statistics.
 *
 * <p>The files are looked for in the given directory, then beneath it in the data set's name ({@code cifar10}) and
 * in the directory its archive unpacks to ({@code cifar-10-batches-bin}, {@code cifar-100-binary}). No system
 * package installs them. The training set {@link Dataset#augments() asks for augmentation}; the test set does not.
 */
final class CifarImages implements ImageSet {
    private static final String PAGE = "https://www.cs.toronto.edu/~kriz/cifar.html";

    /** CIFAR-10: 10 classes, five training batches of 10000 and one test batch. */
    static final CifarImages CIFAR10 = new CifarImages("cifar10", "CIFAR-10", 10, 1,
            List.of("data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin",
                    "data_batch_5.bin"), "test_batch.bin", "cifar-10-batches-bin", "cifar-10-binary.tar.gz",
            new float[] {0.4914f, 0.4822f, 0.4465f}, new float[] {0.2470f, 0.2435f, 0.2616f});
    /** CIFAR-100: 100 fine classes (the coarse label byte is skipped), one training and one test file. */
    static final CifarImages CIFAR100 = new CifarImages("cifar100", "CIFAR-100", 100, 2, List.of("train.bin"),
            "test.bin", "cifar-100-binary", "cifar-100-binary.tar.gz",
            new float[] {0.5071f, 0.4865f, 0.4409f}, new float[] {0.2673f, 0.2564f, 0.2762f});

    private final String name;
    private final String title;
    private final int classes;
    private final int labelBytes;
    private final List<String> trainFiles;
    private final String testFile;
    private final float[] mean;
    private final float[] std;
    private final DataLocation location;

    private CifarImages(String name, String title, int classes, int labelBytes, List<String> trainFiles,
            String testFile, String archiveDir, String archive, float[] mean, float[] std) {
        this.name = name;
        this.title = title;
        this.classes = classes;
        this.labelBytes = labelBytes;
        this.trainFiles = trainFiles;
        this.testFile = testFile;
        this.mean = mean;
        this.std = std;
        List<String> files = new ArrayList<>(trainFiles);
        files.add(testFile);
        this.location = new DataLocation(title, files, List.of(name, archiveDir, name + "/" + archiveDir), null,
                "download " + archive + " (the binary version) from " + PAGE + " and unpack it in the data "
                        + "directory (tar xzf " + archive + " -C DIR makes DIR/" + archiveDir + "), then set "
                        + "data_dir or " + DataLocation.ENV + " to DIR");
    }

    float[] mean() {
        return mean.clone();
    }

    float[] std() {
        return std.clone();
    }

    @Override
    public TrainTestData load(String dataDir, String envDir, DataOptions options) {
        Path dir = directory(dataDir, envDir);
        List<Path> train = new ArrayList<>();
        trainFiles.forEach(file -> train.add(dir.resolve(file)));
        Dataset trainSet = dataset("train", train).withAugmentation(true);
        Dataset testSet = dataset("test", List.of(dir.resolve(testFile)));
        return new TrainTestData(trainSet, testSet, source(dir, trainSet.size(), testSet.size()));
    }

    @Override
    public Path directory(String dataDir, String envDir) {
        return location.require(dataDir, envDir, null);
    }

    @Override
    public String describeSource(String dataDir, String envDir) {
        Path dir = directory(dataDir, envDir);
        int recordSize = labelBytes + CifarBinary.SHAPE.features();
        int train = 0;
        for (String file : trainFiles) {
            train += CifarBinary.records(dir.resolve(file), recordSize);
        }
        return source(dir, train, CifarBinary.records(dir.resolve(testFile), recordSize));
    }

    private Dataset dataset(String split, List<Path> files) {
        CifarBinary.Images images = CifarBinary.read(files, labelBytes, classes);
        return new Dataset(name + " " + split, images.pixels(), images.labels(), CifarBinary.SHAPE, classes, mean,
                std);
    }

    private String source(Path dir, int train, int test) {
        String kind = train == 50000 && test == 10000 ? "full set" : "set";
        return title + " " + kind + " from " + dir + " (" + train + " train / " + test + " test, training images "
                + "augmented)";
    }
}
