package org.gridrun.engine.data;

import java.util.Objects;

/**
 * A labelled set of 8-bit images held in host memory, normalised on the way out.
 *
 * <p>Pixels stay bytes (a quarter of the memory of floats); {@link #gather} turns them into normalised floats
 * {@code (x/255 − mean)/std} through a 256-entry table, producing exactly the values a precomputed float array would
 * hold. Batches are gathered into a caller's reusable host arrays and uploaded from there, so nothing is allocated
 * per step. Labels are class indices, written as floats for upload.
 */
public final class Dataset {
    private final String name;
    private final byte[] pixels;
    private final int[] labels;
    private final int features;
    private final int classes;
    private final float[] table = new float[256];

    /**
     * A data set of {@code labels.length} images of {@code features} pixels each.
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
        this.name = Objects.requireNonNull(name, "name");
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
        this.pixels = pixels;
        this.labels = labels;
        this.features = features;
        this.classes = classes;
        for (int v = 0; v < 256; v++) {
            table[v] = (v / 255f - mean) / std;
        }
    }

    public String name() {
        return name;
    }

    /** The number of images. */
    public int size() {
        return labels.length;
    }

    /** The pixels per image. */
    public int features() {
        return features;
    }

    public int classes() {
        return classes;
    }

    /** The class of image {@code i}. */
    public int label(int i) {
        return labels[i];
    }

    /** The normalised value of pixel {@code j} of image {@code i}. */
    public float pixel(int i, int j) {
        return table[pixels[i * features + j] & 0xFF];
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

    private void copyImage(int image, int row, float[] x, float[] y) {
        int src = image * features;
        int dst = row * features;
        for (int j = 0; j < features; j++) {
            x[dst + j] = table[pixels[src + j] & 0xFF];
        }
        y[row] = labels[image];
    }

    @Override
    public String toString() {
        return name + " (" + size() + " images of " + features + " pixels, " + classes + " classes)";
    }
}
