package org.gridrun.engine.data;

import org.gridrun.engine.random.CounterRng;

/**
 * A labelled image set the trainer reads batches from: held in memory ({@link Dataset}) or decoded from files on
 * demand (ImageNet's folders of JPEGs).
 *
 * <p>Every image comes out normalised and channels-last, {@link #shape()} values per image, into one row of a
 * caller's host array, and its class as a float into the same row of the labels. {@link #copyImage} gives the
 * evaluation view (for files: the centre crop), {@link #copyAugmented} the training view randomised by
 * {@link #augmentationDraws()} values of a random stream the caller has positioned, so an augmentation is a pure
 * function of the stream position and a resumed run sees the same images.
 *
 * <p>Both copy methods may be called from several threads at once for different rows; an implementation keeps
 * per-call state on the stack or per thread. One that {@link #decodesOnDemand()} is slow per image, so batches of it
 * are assembled on threads ahead of need and evaluations stream it in chunks rather than holding it all.
 */
public interface ImageData {
    /** What messages call it, e.g. {@code cifar10 train}. */
    String name();

    /** The number of images. */
    int size();

    /** The height, width and channels of every image as copied out. */
    ImageShape shape();

    /** The values per image: {@code shape().features()}. */
    default int features() {
        return shape().features();
    }

    /** The number of classes; labels are in {@code [0, classes)}. */
    int classes();

    /** The class of image {@code image}. */
    int label(int image);

    /** Writes image {@code image}'s evaluation view into row {@code row} of {@code x} and its class into {@code y}. */
    void copyImage(int image, int row, float[] x, float[] y);

    /** How many values of a random stream one augmented copy reads; 0 when training images are not augmented. */
    int augmentationDraws();

    /**
     * Writes image {@code image}'s training view into row {@code row} of {@code x} and its class into {@code y},
     * randomised by the next {@link #augmentationDraws()} values of {@code draws} (positioned by the caller).
     */
    void copyAugmented(int image, int row, CounterRng draws, float[] x, float[] y);

    /** Whether each copy decodes a file (slow, so worth threads and prefetching) rather than reading memory. */
    boolean decodesOnDemand();

    /** What a run should report about the data at its end (e.g. images skipped as unreadable); empty when nothing. */
    default String summary() {
        return "";
    }
}
