package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gridrun.engine.random.CounterRng;
import org.gridrun.engine.run.BadFileException;

/**
 * One split of a torchvision ImageFolder tree ({@code split/<class>/<image>}), decoded on demand: the files are
 * indexed when it is opened ({@link FolderIndex}) and each copy reads, decodes and transforms one file.
 *
 * <p>Images come out {@code crop × crop × 3} (224 for ImageNet), RGB channels-last, normalised with ImageNet's
 * statistics: {@link #copyImage} writes the evaluation view (resize to short side 256, centre crop), and
 * {@link #copyAugmented} the training view (random resized crop and flip, {@link #augmentationDraws()} draws), both
 * as torchvision computes them ({@link ImageTransforms}). JPEGs are decoded by libjpeg-turbo when installed, else by
 * ImageIO ({@link ImageDecoders}).
 *
 * <p>An image that cannot be read or decoded (corrupt, cut short, not an image) fails the copy with a
 * {@link BadImageException} naming the file, unless {@link DataOptions#skipBadImages()}: then it is recorded once,
 * and it and every later draw of it are replaced by the next image that decodes (wrapping past the last), with that
 * image's class; {@link #summary()} reports how many were skipped. Which images are bad depends only on the files,
 * so the replacement is the same in every run and on every thread. Both copy methods are safe to call from several
 * threads for different rows.
 */
final class ImageFolder implements ImageData {
    /** The side of ImageNet's training and evaluation views. */
    static final int CROP = 224;
    /** The short side the evaluation view is resized to before its centre crop. */
    static final int RESIZE = 256;

    private final String name;
    private final FolderIndex index;
    private final boolean skipBad;
    private final ImageDecoder decoder;
    private final ImageTransforms transforms;
    private final ImageShape shape;
    private final SkippedImages skipped = new SkippedImages();

    /**
     * The split indexed in {@code index}, decoded by {@code decoder}, viewed {@code crop × crop} with the evaluation
     * view cropped from the image resized to short side {@code resize}.
     */
    ImageFolder(String name, FolderIndex index, DataOptions options, ImageDecoder decoder, int crop, int resize) {
        this.name = name;
        this.index = index;
        this.skipBad = options.skipBadImages();
        this.decoder = decoder;
        this.transforms = new ImageTransforms(crop, resize);
        this.shape = new ImageShape(crop, crop, 3);
    }

    /** ImageNet's views (224, from 256) of the split in {@code dir}, decoded by the best decoder installed. */
    static ImageFolder open(String name, Path dir, DataOptions options) {
        return new ImageFolder(name, FolderIndex.scan(dir), options, ImageDecoders.best(), CROP, RESIZE);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int size() {
        return index.size();
    }

    @Override
    public ImageShape shape() {
        return shape;
    }

    @Override
    public int classes() {
        return index.classes().size();
    }

    @Override
    public int label(int image) {
        return index.label(image);
    }

    /** The index of the split's files. */
    FolderIndex index() {
        return index;
    }

    @Override
    public void copyImage(int image, int row, float[] x, float[] y) {
        Decoded d = read(image);
        transforms.evaluation(d.image, x, row * shape.features());
        y[row] = index.label(d.index);
    }

    @Override
    public int augmentationDraws() {
        return ImageTransforms.DRAWS;
    }

    @Override
    public void copyAugmented(int image, int row, CounterRng draws, float[] x, float[] y) {
        Decoded d = read(image);
        transforms.training(d.image, draws, x, row * shape.features());
        y[row] = index.label(d.index);
    }

    /** True: every copy reads and decodes a file. */
    @Override
    public boolean decodesOnDemand() {
        return true;
    }

    /** {@code skipped N unreadable images (first: FILE: REASON)} when images were skipped, else empty. */
    @Override
    public String summary() {
        return skipped.summary();
    }

    /** Image {@code image} decoded, or when skipping bad images, the next one that decodes. */
    private Decoded read(int image) {
        if (!skipBad) {
            return new Decoded(image, decode(image));
        }
        int n = size();
        for (int k = 0; k < n; k++) {
            int i = (image + k) % n;
            if (!skipped.contains(i)) {
                try {
                    return new Decoded(i, decode(i));
                } catch (BadImageException e) {
                    skipped.add(i, e);
                }
            }
        }
        throw new UncheckedIOException(name + ": none of the " + n + " images in " + index.root() + " can be "
                + "decoded (" + skipped.summary() + "); check that the files are JPEG or PNG images",
                new IOException("no readable image"));
    }

    /** Reads and decodes image {@code image}, failing with a {@link BadImageException} naming its file. */
    private RgbImage decode(int image) {
        Path file = index.path(image);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BadImageException(file, new IOException("cannot read the file: "
                    + BadFileException.messageOf(e), e));
        }
        try {
            return decoder.decode(bytes, bytes.length);
        } catch (IOException e) {
            throw new BadImageException(file, e);
        } catch (RuntimeException e) {
            throw new BadImageException(file, new IOException("the decoder failed: "
                    + BadFileException.messageOf(e), e));
        }
    }

    @Override
    public String toString() {
        return name + " (" + size() + " images in " + index.root() + ", " + classes() + " classes, viewed as "
                + shape + ")";
    }

    /** A decoded image and the index it was read from (another one when the asked image was skipped). */
    private record Decoded(int index, RgbImage image) {
    }
}
