package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * ImageNet (ILSVRC 2012) in torchvision's ImageFolder layout: {@code DIR/train/<class>/*.JPEG} and
 * {@code DIR/val/<class>/*.JPEG}, 1000 classes numbered in the sorted order of their folder names, 1,281,167
 * training and 50,000 validation images, decoded as they are read ({@link ImageFolder}).
 *
 * <p>{@code DIR} is {@code data_dir}, else {@code $GRIDRUN_DATA_DIR}, each searched itself and then beneath it in
 * {@code imagenet/} and {@code ILSVRC2012/}: the first holding both {@code train} and {@code val} folders is read.
 * The validation images must be sorted into class folders as the training images are (the seed's ImageFolder
 * loader reads them so), and both splits must have the same class folders. The training set is read in its
 * augmented view, the validation set in its evaluation view.
 */
final class ImageNetImages implements ImageSet {
    /** The number of training images in ILSVRC 2012. */
    static final int TRAIN_SIZE = 1_281_167;
    /** The number of validation images in ILSVRC 2012. */
    static final int VAL_SIZE = 50_000;

    static final ImageNetImages SET = new ImageNetImages();

    private static final String LAYOUT = "ImageNet is read in torchvision's ImageFolder layout: DIR/train/<class>/"
            + "*.JPEG and DIR/val/<class>/*.JPEG, the same class folders (e.g. n01440764) in both, classes numbered in "
            + "sorted folder order; the validation images must be moved into class folders, as torchvision's "
            + "ImageFolder needs them (pytorch/examples' imagenet/extract_ILSVRC.sh does both splits); then set "
            + "data_dir or " + DataLocation.ENV + " to DIR";

    private final DataLocation location = DataLocation.folders("ImageNet", List.of("train", "val"),
            List.of("imagenet", "ILSVRC2012"), LAYOUT);

    private ImageNetImages() {
    }

    @Override
    public TrainTestData load(String dataDir, String envDir, DataOptions options) {
        Path dir = directory(dataDir, envDir);
        FolderIndex[] splits = splits(dir);
        ImageDecoder decoder = ImageDecoders.best();
        return new TrainTestData(
                new ImageFolder("imagenet train", splits[0], options, decoder, ImageFolder.CROP, ImageFolder.RESIZE),
                new ImageFolder("imagenet val", splits[1], options, decoder, ImageFolder.CROP, ImageFolder.RESIZE),
                source(dir, splits[0], splits[1]));
    }

    @Override
    public Path directory(String dataDir, String envDir) {
        return location.require(dataDir, envDir, null);
    }

    @Override
    public String describeSource(String dataDir, String envDir) {
        Path dir = directory(dataDir, envDir);
        FolderIndex[] splits = splits(dir);
        return source(dir, splits[0], splits[1]);
    }

    /** The train and val splits of {@code dir}, indexed, with the same classes. */
    private static FolderIndex[] splits(Path dir) {
        FolderIndex train = FolderIndex.scan(dir.resolve("train"));
        FolderIndex val = FolderIndex.scan(dir.resolve("val"));
        sameClasses(train, val);
        return new FolderIndex[] {train, val};
    }

    /** Fails, naming the first class folder that one split has and the other lacks, when their classes differ. */
    static void sameClasses(FolderIndex train, FolderIndex val) {
        List<String> a = train.classes();
        List<String> b = val.classes();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String inTrain = i < a.size() ? a.get(i) : null;
            String inVal = i < b.size() ? b.get(i) : null;
            if (inTrain == null || inVal != null && inVal.compareTo(inTrain) < 0) {
                throw differ(train, val, inVal, val.root(), train.root());
            }
            if (inVal == null || !inVal.equals(inTrain)) {
                throw differ(train, val, inTrain, train.root(), val.root());
            }
        }
    }

    private static UncheckedIOException differ(FolderIndex train, FolderIndex val, String name, Path in,
            Path notIn) {
        return new UncheckedIOException("ImageNet's train and val must have the same class folders, but " + in
                + "/" + name + " has no counterpart in " + notIn + " (train has " + train.classes().size()
                + " classes, val " + val.classes().size() + "); " + LAYOUT, new IOException("class folders differ"));
    }

    private static String source(Path dir, FolderIndex train, FolderIndex val) {
        boolean full = train.size() == TRAIN_SIZE && val.size() == VAL_SIZE && train.classes().size() == 1000;
        int ignored = train.ignored() + val.ignored();
        return "ImageNet " + (full ? "full set" : "set") + " from " + dir + " (" + train.classes().size()
                + " classes, " + train.size() + " train / " + val.size() + " val images"
                + (ignored > 0 ? ", " + ignored + " other files ignored" : "") + "; training images randomly "
                + "resized, cropped and flipped; decoded by " + ImageDecoders.describe() + ")";
    }
}
