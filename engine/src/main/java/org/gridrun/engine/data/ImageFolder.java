package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.gridrun.engine.random.CounterRng;

/**
 * One split of a torchvision ImageFolder tree, {@code <split>/<class>/<image>}, decoded on demand: classes are the
 * sub-folders sorted by name, images the {@link #EXTENSIONS} files of each sorted by name.
 *
 * <p>Nothing is decoded when the folder is indexed. {@link #copyImage} gives the evaluation view (short side resized
 * to {@code resize}, the centre {@code crop × crop}), {@link #copyAugmented} the training view (a random resized
 * crop to {@code crop × crop} and a horizontal flip, {@link CropWindow#random}). Both resize with {@link Resampler}
 * and normalise with ImageNet's per-channel mean and standard deviation.
 *
 * <p>An image that cannot be decoded fails with a {@link BadImageException} naming the file; with
 * {@code skipBadImages} it is counted once and replaced by the next image of the folder that decodes, so a batch
 * always holds its number of images and the replacement is the same in every run.
 */
public final class ImageFolder implements ImageData {
    /** The file name endings read as images, compared without case. */
    public static final List<String> EXTENSIONS = List.of(".jpeg", ".jpg", ".png");
    /** ImageNet's per-channel mean on the [0, 1] scale (red, green, blue). */
    static final float[] MEAN = {0.485f, 0.456f, 0.406f};
    /** ImageNet's per-channel standard deviation on the [0, 1] scale. */
    static final float[] STD = {0.229f, 0.224f, 0.225f};

    private final String name;
    private final Path root;
    private final List<String> classes;
    private final String[] files;
    private final int[] labels;
    private final int crop;
    private final int resize;
    private final boolean skipBadImages;
    private final float[] table;
    private final Set<Path> skipped = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> firstSkip = new AtomicReference<>();

    private ImageFolder(String name, Path root, List<String> classes, String[] files, int[] labels, int crop,
                        int resize, boolean skipBadImages) {
        this.name = name;
        this.root = root;
        this.classes = List.copyOf(classes);
        this.files = files;
        this.labels = labels;
        this.crop = crop;
        this.resize = resize;
        this.skipBadImages = skipBadImages;
        this.table = new float[3 << 8];
        for (int c = 0; c < 3; c++) {
            for (int v = 0; v < 256; v++) {
                table[c << 8 | v] = (v / 255f - MEAN[c]) / STD[c];
            }
        }
    }

    /**
     * Indexes the folder {@code root}: its class sub-folders and their images. Fails with an
     * {@link UncheckedIOException} naming the folder when it has no class folder or a class folder has no image.
     */
    public static ImageFolder index(String name, Path root, int crop, int resize, boolean skipBadImages) {
        if (crop < 1 || resize < crop) {
            throw new IllegalArgumentException("crop must be positive and at most resize, found " + crop + " and "
                    + resize);
        }
        List<String> classes = classFolders(root);
        if (classes.isEmpty()) {
            throw new UncheckedIOException(new IOException(root + ": no class folders; expected "
                    + root + "/<class>/<image>.JPEG, one folder per class"));
        }
        List<String> files = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        for (int c = 0; c < classes.size(); c++) {
            List<String> images = images(root.resolve(classes.get(c)));
            if (images.isEmpty()) {
                throw new UncheckedIOException(new IOException(root.resolve(classes.get(c)) + ": no images ("
                        + String.join(", ", EXTENSIONS) + "); every class folder needs at least one"));
            }
            for (String image : images) {
                files.add(classes.get(c) + "/" + image);
                labels.add(c);
            }
        }
        return new ImageFolder(name, root, classes, files.toArray(String[]::new),
                labels.stream().mapToInt(Integer::intValue).toArray(), crop, resize, skipBadImages);
    }

    /** The sub-folders of {@code root}, sorted by name. */
    static List<String> classFolders(Path root) {
        try (Stream<Path> entries = Files.list(root)) {
            return entries.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(root + ": cannot list the folder: " + e.getMessage(), e);
        }
    }

    private static List<String> images(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).filter(ImageFolder::isImage).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot list the folder: " + e.getMessage(), e);
        }
    }

    private static boolean isImage(String file) {
        String lower = file.toLowerCase(Locale.ROOT);
        return EXTENSIONS.stream().anyMatch(lower::endsWith);
    }

    /** The class folder names, in label order. */
    public List<String> classNames() {
        return classes;
    }

    /** The file of image {@code image}. */
    public Path file(int image) {
        return root.resolve(files[image]);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int size() {
        return files.length;
    }

    @Override
    public ImageShape shape() {
        return new ImageShape(crop, crop, 3);
    }

    @Override
    public int classes() {
        return classes.size();
    }

    @Override
    public int label(int image) {
        return labels[image];
    }

    @Override
    public void copyImage(int image, int row, float[] x, float[] y) {
        Readable source = decode(image);
        DecodedImage decoded = source.image();
        CropWindow window = CropWindow.centre(decoded.width(), decoded.height(), resize, crop);
        Resampler.resize(decoded, window, crop, table, x, row * crop * crop * 3);
        y[row] = labels[source.index()];
    }

    @Override
    public int augmentationDraws() {
        return CropWindow.DRAWS;
    }

    @Override
    public void copyAugmented(int image, int row, CounterRng draws, float[] x, float[] y) {
        Readable source = decode(image);
        DecodedImage decoded = source.image();
        CropWindow window = CropWindow.random(decoded.width(), decoded.height(), draws);
        Resampler.resize(decoded, window, crop, table, x, row * crop * crop * 3);
        y[row] = labels[source.index()];
    }

    /** An image that decoded, and its index. */
    private record Readable(int index, DecodedImage image) {
    }

    /**
     * Image {@code image} decoded; when it cannot be and bad images are skipped, the next image that decodes
     * (wrapping), each bad one counted once.
     */
    private Readable decode(int image) {
        for (int tries = 0; tries < files.length; tries++) {
            int candidate = (image + tries) % files.length;
            Path file = file(candidate);
            if (skipped.contains(file)) {
                continue;
            }
            try {
                return new Readable(candidate, ImageDecoder.decode(file));
            } catch (BadImageException e) {
                if (!skipBadImages) {
                    throw e;
                }
                skip(e);
            }
        }
        throw new UncheckedIOException(new IOException(root + ": no image of the folder can be decoded"));
    }

    private void skip(BadImageException e) {
        if (skipped.add(e.file())) {
            firstSkip.compareAndSet(null, e.getMessage().split(";")[0]);
        }
    }

    @Override
    public boolean decodesOnDemand() {
        return true;
    }

    @Override
    public String summary() {
        int count = skipped.size();
        return count == 0 ? "" : "skipped " + count + " unreadable image" + (count == 1 ? "" : "s") + " (first: "
                + firstSkip.get() + ")";
    }

    @Override
    public String toString() {
        return name + " (" + size() + " images in " + classes() + " classes under " + root + ")";
    }
}
