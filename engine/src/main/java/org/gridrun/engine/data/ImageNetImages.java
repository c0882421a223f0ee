package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * ImageNet (ILSVRC-2012) in torchvision's ImageFolder layout, {@code DIR/train/<class>/*.JPEG} and
 * {@code DIR/val/<class>/*.JPEG}, read as {@link ImageFolder}s: 224×224 crops, the training set augmented.
 *
 * <p>{@code DIR} is the config's {@code data_dir}, else {@code GRIDRUN_DATA_DIR}: the directory itself, then
 * {@code imagenet/} and {@code ILSVRC2012/} beneath it. Both splits must have the same class folders, since labels
 * are folder positions. No system package installs ImageNet.
 */
final class ImageNetImages implements ImageSet {
    /** The ImageNet set. */
    static final ImageNetImages IMAGENET = new ImageNetImages();
    /** The published training set's size. */
    static final int TRAIN_SIZE = 1_281_167;

    private static final int CROP = 224;
    private static final int RESIZE = 256;
    private static final List<String> SUBDIRECTORIES = List.of("imagenet", "ILSVRC2012");
    private static final String LAYOUT = "DIR/train/<class>/*.JPEG and DIR/val/<class>/*.JPEG, one folder per class "
            + "named alike in both (torchvision's ImageFolder layout; the validation images sorted into class "
            + "folders)";

    private ImageNetImages() {
    }

    @Override
    public TrainTestData load(String dataDir, String envDir, DataOptions options) {
        Path dir = locate(dataDir, envDir);
        ImageFolder train = ImageFolder.index("imagenet train", dir.resolve("train"), CROP, RESIZE,
                options.skipBadImages());
        ImageFolder val = ImageFolder.index("imagenet val", dir.resolve("val"), CROP, RESIZE,
                options.skipBadImages());
        requireSameClasses(dir, train.classNames(), val.classNames());
        return new TrainTestData(train, val, source(dir, train.classes(), train.size(), val.size()));
    }

    @Override
    public String describeSource(String dataDir, String envDir) {
        Path dir = locate(dataDir, envDir);
        return "ImageNet folders in " + dir + " (" + ImageFolder.classFolders(dir.resolve("train")).size()
                + " classes; images decoded as batches need them by " + ImageDecoder.describe() + ")";
    }

    private static String source(Path dir, int classes, int train, int val) {
        return "ImageNet folders in " + dir + " (" + classes + " classes, " + train + " train / " + val
                + " val images, decoded by " + ImageDecoder.describe() + ", training images randomly cropped and "
                + "flipped)";
    }

    /** The directory holding {@code train/} and {@code val/}, or an error naming where it looked. */
    static Path locate(String dataDir, String envDir) {
        String given;
        Path root;
        if (dataDir != null && !dataDir.isBlank()) {
            given = "data_dir " + dataDir;
            root = Path.of(dataDir);
        } else if (envDir != null && !envDir.isBlank()) {
            given = DataLocation.ENV + "=" + envDir;
            root = Path.of(envDir);
        } else {
            throw missing("ImageNet not found: data_dir is empty and " + DataLocation.ENV + " is not set; "
                    + "expected " + LAYOUT + "; set data_dir or " + DataLocation.ENV + " to DIR");
        }
        List<Path> candidates = new ArrayList<>();
        candidates.add(root);
        SUBDIRECTORIES.forEach(sub -> candidates.add(root.resolve(sub)));
        for (Path dir : candidates) {
            if (Files.isDirectory(dir.resolve("train")) && Files.isDirectory(dir.resolve("val"))) {
                return dir;
            }
        }
        StringBuilder looked = new StringBuilder();
        for (Path dir : candidates) {
            looked.append(looked.length() == 0 ? "" : ", ").append(dir.toAbsolutePath()).append(" (")
                    .append(absence(dir)).append(')');
        }
        throw missing(given + ": no ImageNet folders; looked in " + looked + "; expected " + LAYOUT);
    }

    private static String absence(Path dir) {
        if (!Files.isDirectory(dir)) {
            return "no such directory";
        }
        boolean train = Files.isDirectory(dir.resolve("train"));
        boolean val = Files.isDirectory(dir.resolve("val"));
        return train ? "no val/" : val ? "no train/" : "neither train/ nor val/";
    }

    private static void requireSameClasses(Path dir, List<String> train, List<String> val) {
        if (train.equals(val)) {
            return;
        }
        for (int i = 0; i < Math.max(train.size(), val.size()); i++) {
            String t = i < train.size() ? train.get(i) : "(none)";
            String v = i < val.size() ? val.get(i) : "(none)";
            if (!t.equals(v)) {
                throw new UncheckedIOException(new IOException(dir + ": train/ has " + train.size() + " class "
                        + "folders and val/ " + val.size() + "; class " + i + " is " + t + " in train/ but " + v
                        + " in val/; both need the same class folders, since a label is the folder's position"));
            }
        }
    }

    private static UncheckedIOException missing(String message) {
        return new UncheckedIOException(message, new NoSuchFileException(message));
    }
}
