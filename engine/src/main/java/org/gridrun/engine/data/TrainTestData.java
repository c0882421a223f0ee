package org.gridrun.engine.data;

import java.util.Objects;

/**
 * A training set, a test set, and one line saying where they came from.
 *
 * @param train  the training images
 * @param test   the test images, used for {@code Vloss} and {@code Vacc}
 * @param source where the data came from, for logs and status lines, e.g.
 *               {@code Fashion-MNIST full set from /usr/share/datasets/fashion-mnist (60000 train / 10000 test)}
 */
public record TrainTestData(ImageData train, ImageData test, String source) {
    public TrainTestData {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(source, "source");
        if (!train.shape().equals(test.shape()) || train.classes() != test.classes()) {
            throw new IllegalArgumentException("train and test sets differ in shape: " + train + " vs " + test);
        }
    }
}
