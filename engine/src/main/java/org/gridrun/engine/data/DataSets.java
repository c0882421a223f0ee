package org.gridrun.engine.data;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data sets the trainer can read, by their config names: {@code fashion-mnist}, {@code mnist}, {@code cifar10},
 * {@code cifar100}, {@code imagenet}, {@code synthetic-cifar} ({@link SyntheticCifar}, generated in memory), and
 * the texts of language models, {@code wikitext2}, {@code text} (any UTF-8 file) and {@code generated-text}
 * ({@link TextCorpus}).
 *
 * <p>Each resolves its directory the same way: the config's {@code data_dir} when set, else
 * {@code $GRIDRUN_DATA_DIR}, each searched itself and then beneath it in the data set's name (and, for CIFAR, in the
 * directory its archive unpacks to); else the directory a system package installs to, where there is one. Only
 * Fashion-MNIST has such a package ({@code dataset-fashion-mnist}, in {@code /usr/share/datasets/fashion-mnist}) and
 * a subset shipped with gridrun for when nothing is installed; MNIST and CIFAR must be downloaded, and the error for
 * their missing files says from where.
 *
 * <p>MNIST is read from the same four IDX file names as Fashion-MNIST (gzipped or plain) and normalised with
 * {@code (x/255 − 0.1307)/0.3081}. CIFAR is read from the binary archives and stored channels-last; its training
 * set {@link Dataset#augments() is augmented}. ImageNet is read from folders of JPEGs in torchvision's ImageFolder
 * layout (also beneath {@code imagenet/} or {@code ILSVRC2012/}), decoded as batches need the images
 * ({@link ImageNetImages}).
 */
public final class DataSets {
    /** MNIST's normalisation mean on the [0, 1] scale. */
    public static final float MNIST_MEAN = 0.1307f;
    /** MNIST's normalisation standard deviation on the [0, 1] scale. */
    public static final float MNIST_STD = 0.3081f;

    static final IdxImages MNIST = new IdxImages("mnist", "MNIST", MNIST_MEAN, MNIST_STD, null,
            "download the four files from the MNIST database page (http://yann.lecun.com/exdb/mnist/) or a mirror "
                    + "of it into a directory and set data_dir or " + DataLocation.ENV + " to it", null, null);

    private static final int MNIST_TRAIN_SIZE = 60_000;
    private static final int CIFAR_TRAIN_SIZE = 50_000;
    private static final Map<String, ImageSet> SETS = new LinkedHashMap<>();

    static {
        SETS.put("fashion-mnist", FashionMnist.SET);
        SETS.put("mnist", MNIST);
        SETS.put("cifar10", CifarImages.CIFAR10);
        SETS.put("cifar100", CifarImages.CIFAR100);
        SETS.put("imagenet", ImageNetImages.SET);
        SETS.put("synthetic-cifar", SyntheticCifar.SET);
        SETS.put("wikitext2", TextCorpus.WIKITEXT2);
    }

    private DataSets() {
    }

    /** The names {@link #load} accepts, in a fixed order. */
    public static List<String> names() {
        List<String> names = new ArrayList<>(SETS.keySet());
        names.add(TEXT);
        names.add(TextCorpus.GENERATED);
        return names;
    }

    /** The data set of any UTF-8 text file ({@link TextCorpus#file}), which a config names with {@code path}. */
    public static final String TEXT = "text";

    /** Whether {@code dataset} is text for a language model ({@code wikitext2}, {@code text}). */
    public static boolean isText(String dataset) {
        return dataset.equals(TEXT) || dataset.equals(TextCorpus.GENERATED) || SETS.get(dataset) instanceof TextCorpus;
    }

    /**
     * Loads data set {@code dataset} from where {@code dataDir} (may be empty) and {@code GRIDRUN_DATA_DIR} resolve.
     *
     * <p>Fails with an {@link IllegalArgumentException} listing the known names for an unknown one, and with an
     * {@link java.io.UncheckedIOException} naming the file, where it looked and how to get it when a file is missing,
     * or naming the file and the byte offset when one is truncated or malformed.
     */
    public static TrainTestData load(String dataset, String dataDir) {
        return load(dataset, dataDir, DataOptions.DEFAULT);
    }

    /** As {@link #load(String, String)}, reading a set decoded from files with {@code options}. */
    public static TrainTestData load(String dataset, String dataDir, DataOptions options) {
        return set(dataset).load(dataDir, System.getenv(DataLocation.ENV), options);
    }

    /** The one-line source description {@link #load} would give, reading only the files' headers or sizes. */
    public static String describeSource(String dataset, String dataDir) {
        if (dataset.equals(TEXT)) {
            return "the text file each experiment names by path";
        }
        if (dataset.equals(TextCorpus.GENERATED)) {
            return TextCorpus.generated().source();
        }
        return set(dataset).describeSource(dataDir, System.getenv(DataLocation.ENV));
    }

    /**
     * The directory {@link #load} reads {@code dataset} from given {@code dataDir} (may be empty), failing as
     * {@link #load} fails when its files are missing; null when it would read the subset shipped with gridrun.
     */
    public static Path directory(String dataset, String dataDir) {
        return set(dataset).directory(dataDir, System.getenv(DataLocation.ENV));
    }

    /**
     * The size of {@code dataset}'s full training set as published (60,000 for MNIST and Fashion-MNIST, 50,000 for
     * CIFAR, 1,281,167 for ImageNet; for text its tokens, WikiText-2's for a user's file), without reading any file: a planner's estimate of an epoch's length. The set a run actually loads can be
     * smaller (gridrun's shipped Fashion-MNIST subset); the trainer counts from what it loaded.
     */
    public static int nominalTrainSize(String dataset) {
        if (dataset.equals("imagenet")) {
            return ImageNetImages.TRAIN_SIZE;
        }
        if (dataset.equals("synthetic-cifar")) {
            return SyntheticCifar.TRAIN_SIZE;
        }
        if (dataset.equals(TextCorpus.GENERATED)) {
            return TextCorpus.generated().train().size() + 1;
        }
        if (isText(dataset)) {
            return TextCorpus.WIKITEXT2_TRAIN_TOKENS;
        }
        return dataset.startsWith("cifar") ? CIFAR_TRAIN_SIZE : MNIST_TRAIN_SIZE;
    }

    static ImageSet set(String dataset) {
        if (dataset.equals(TEXT) || dataset.equals(TextCorpus.GENERATED)) {
            throw new IllegalArgumentException("dataset " + dataset + " is made by TextCorpus, not a set of files");
        }
        ImageSet set = SETS.get(dataset);
        if (set == null) {
            throw new IllegalArgumentException("unknown data set '" + dataset + "'; known: "
                    + String.join(", ", names()));
        }
        return set;
    }
}
