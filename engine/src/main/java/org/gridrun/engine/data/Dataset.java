package org.gridrun.engine.data;

import java.util.Objects;
import org.gridrun.engine.random.CounterRng;

/**
 * A labelled set of 8-bit images held in host memory, normalised on the way out.
 *
 * <p>Pixels stay bytes (a quarter of the memory of floats); {@link #gather} turns them into normalised floats
 * {@code (x/255 − mean[c])/std[c]} through a 256-entry table per channel, producing exactly the values a precomputed
 * float array would hold. Batches are gathered into a caller's reusable host arrays and uploaded from there, so
 * nothing is allocated per step. Labels are class indices, written as floats for upload.
 *
 * <p>Images are stored channels-last, as {@link ImageShape} describes: colour images hold pixel (y, x)'s red, green
 * and blue side by side, so value {@code j} is channel {@code j % channels}. Readers of files that store whole
 * channel planes (CIFAR's binary format) transpose on load, so that a batch is an NHWC tensor ready for the
 * convolution layers.
 *
 * <p>{@link #augments()} says whether training batches from this set should be randomly cropped and flipped
 * ({@link Augmentation}); the flag does not change what {@link #gather} writes.
 */
public final class Dataset implements ImageData {
    private final String name;
    private final byte[] pixels;
    private final int[] labels;
    private final ImageShape shape;
    private final int features;
    private final int channels;
    private final int classes;
    private final float[] table;
    private final boolean augments;

    /**
     * A data set of {@code labels.length} single-channel images of {@code features} pixels each, shaped
     * {@code 1 × features × 1}.
     *
     * @param name     what messages call it, e.g. {@code fashion-mnist train}
     * @param pixels   the images, row-major, {@code labels.length × features} unsigned bytes
     * @param labels   the class of each image, in [0, classes)
     * @param features the pixels per image
     * @param classes  the number of classes
     * @param mean     the normalisation mean, on the [0, 1] pixel scale
     * @param std      the normalisation standard deviation, on the [0, 1] pixel scale
     */
    public Dataset(String name, byte[] pixels, int[] labels, int features, int classes, float mean, float std) {
        this(name, pixels, labels, new ImageShape(1, features, 1), classes, new float[] {mean},
                new float[] {std});
    }

    /**
     * A data set of {@code labels.length} images of the given shape, normalised per channel.
     *
     * @param name    what messages call it, e.g. {@code cifar10 train}
     * @param pixels  the images, channels-last, {@code labels.length × shape.features()} unsigned bytes
     * @param labels  the class of each image, in [0, classes)
     * @param shape   each image's height, width and channels
     * @param classes the number of classes
     * @param mean    the normalisation mean of each channel, on the [0, 1] pixel scale
     * @param std     the normalisation standard deviation of each channel, on the [0, 1] pixel scale
     */
    public Dataset(String name, byte[] pixels, int[] labels, ImageShape shape, int classes, float[] mean,
            float[] std) {
        this(name, pixels, labels, shape, classes, table(name, shape.channels(), mean, std), false);
        if ((long) labels.length * features != pixels.length) {
            throw new IllegalArgumentException(name + ": " + pixels.length + " pixels do not make "
                    + labels.length + " images of " + features);
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= classes) {
                throw new IllegalArgumentException(name + ": label " + i + " is " + labels[i] + ", outside [0, "
                        + classes + ")");
            }
        }
    }

    private Dataset(String name, byte[] pixels, int[] labels, ImageShape shape, int classes, float[] table,
            boolean augments) {
        this.name = Objects.requireNonNull(name, "name");
        this.pixels = pixels;
        this.labels = labels;
        this.shape = shape;
        this.features = shape.features();
        this.channels = shape.channels();
        this.classes = classes;
        this.table = table;
        this.augments = augments;
    }

    /** The normalised value of byte {@code v} of channel {@code c} at {@code c·256 + v}; checks the statistics. */
    static float[] table(String name, int channels, float[] mean, float[] std) {
        if (mean.length != channels || std.length != channels) {
            throw new IllegalArgumentException(name + ": " + channels + " channels need as many means and standard "
                    + "deviations, found " + mean.length + " and " + std.length);
        }
        float[] table = new float[channels << 8];
        for (int c = 0; c < channels; c++) {
            if (!(std[c] > 0)) {
                throw new IllegalArgumentException(name + ": std of channel " + c + " must be positive, found "
                        + std[c]);
            }
            for (int v = 0; v < 256; v++) {
                table[c << 8 | v] = (v / 255f - mean[c]) / std[c];
            }
        }
        return table;
    }

    /** This data set with {@link #augments()} set to {@code on}, sharing its images. */
    public Dataset withAugmentation(boolean on) {
        return on == augments ? this : new Dataset(name, pixels, labels, shape, classes, table, on);
    }

    @Override
    public String name() {
        return name;
    }

    /** The number of images. */
    @Override
    public int size() {
        return labels.length;
    }

    /** The values per image: {@code shape().features()}. */
    @Override
    public int features() {
        return features;
    }

    /** Each image's height, width and channels. */
    @Override
    public ImageShape shape() {
        return shape;
    }

    @Override
    public int classes() {
        return classes;
    }

    /** Whether training batches from this set should be randomly cropped and flipped by an {@link Augmentation}. */
    public boolean augments() {
        return augments;
    }

    /** The class of image {@code i}. */
    @Override
    public int label(int i) {
        return labels[i];
    }

    /** The normalised value {@code j} of image {@code i} (channel {@code j % channels}). */
    public float pixel(int i, int j) {
        return table[(j % channels) << 8 | pixels[i * features + j] & 0xFF];
    }

    /** How many images each class has. */
    public int[] classCounts() {
        int[] counts = new int[classes];
        for (int label : labels) {
            counts[label]++;
        }
        return counts;
    }

    /**
     * Writes images {@code indices[from … from + count)} into {@code x} (row-major, {@code count × features}) and
     * their classes into {@code y}.
     */
    public void gather(int[] indices, int from, int count, float[] x, float[] y) {
        for (int r = 0; r < count; r++) {
            copyImage(indices[from + r], r, x, y);
        }
    }

    /** Writes images {@code [from, from + count)} into {@code x} and their classes into {@code y}. */
    public void copyRows(int from, int count, float[] x, float[] y) {
        for (int r = 0; r < count; r++) {
            copyImage(from + r, r, x, y);
        }
    }

    @Override
    public void copyImage(int image, int row, float[] x, float[] y) {
        int src = image * features;
        int dst = row * features;
        if (channels == 1) {
            for (int j = 0; j < features; j++) {
                x[dst + j] = table[pixels[src + j] & 0xFF];
            }
        } else {
            for (int p = 0; p < features; p += channels) {
                for (int c = 0; c < channels; c++) {
                    x[dst + p + c] = table[c << 8 | pixels[src + p + c] & 0xFF];
                }
            }
        }
        y[row] = labels[image];
    }

    /** {@link Augmentation#DRAWS} when the set {@link #augments()}, else 0. */
    @Override
    public int augmentationDraws() {
        return augments ? Augmentation.DRAWS : 0;
    }

    /** The pad-crop-flip {@link Augmentation} of image {@code image}, drawn from {@code draws}. */
    @Override
    public void copyAugmented(int image, int row, CounterRng draws, float[] x, float[] y) {
        int dy = Augmentation.offset(draws);
        int dx = Augmentation.offset(draws);
        copyShifted(image, row, dy, dx, draws.nextLong() < 0, x, y);
    }

    /** False: the images are in memory. */
    @Override
    public boolean decodesOnDemand() {
        return false;
    }

    /**
     * Writes image {@code image} into row {@code row} of {@code x} shifted and optionally mirrored: output pixel
     * (y, x) is source pixel {@code (y + dy, x' + dx)} with {@code x' = width − 1 − x} when {@code flip}, else
     * {@code x}. Source pixels outside the image are raw 0, normalised like any other.
     *
     * <p>This is a crop of the image zero-padded by {@code |dy|, |dx|} followed by a horizontal flip.
     */
    void copyShifted(int image, int row, int dy, int dx, boolean flip, float[] x, float[] y) {
        int height = shape.height();
        int width = shape.width();
        int src = image * features;
        int out = row * features;
        for (int oy = 0; oy < height; oy++) {
            int sy = oy + dy;
            for (int ox = 0; ox < width; ox++, out += channels) {
                int sx = (flip ? width - 1 - ox : ox) + dx;
                boolean inside = sy >= 0 && sy < height && sx >= 0 && sx < width;
                int in = src + (sy * width + sx) * channels;
                for (int c = 0; c < channels; c++) {
                    x[out + c] = table[c << 8 | (inside ? pixels[in + c] & 0xFF : 0)];
                }
            }
        }
        y[row] = labels[image];
    }

    @Override
    public String toString() {
        return name + " (" + size() + " images of " + shape + ", " + classes + " classes)";
    }
}
