package org.gridrun.engine.data;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The images of a data set found unreadable and skipped ({@code skip_bad_images}): each counted once, whichever
 * threads find it and however often it is drawn. Thread-safe.
 */
final class SkippedImages {
    private final ConcurrentSkipListMap<Integer, BadImageException> skipped = new ConcurrentSkipListMap<>();

    /** Records that image {@code image} cannot be decoded, as {@code failure} says. */
    void add(int image, BadImageException failure) {
        skipped.putIfAbsent(image, failure);
    }

    /** Whether image {@code image} was found unreadable before. */
    boolean contains(int image) {
        return skipped.containsKey(image);
    }

    /** How many images were skipped. */
    int count() {
        return skipped.size();
    }

    /**
     * {@code skipped N unreadable image(s) (first: FILE: REASON)}, the first by index; empty when none was skipped.
     */
    String summary() {
        Map.Entry<Integer, BadImageException> first = skipped.firstEntry();
        if (first == null) {
            return "";
        }
        int n = skipped.size();
        return "skipped " + n + " unreadable image" + (n == 1 ? "" : "s") + " (first: " + first.getValue().file()
                + ": " + first.getValue().reason() + ")";
    }
}
