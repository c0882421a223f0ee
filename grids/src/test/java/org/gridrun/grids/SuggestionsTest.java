package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    private static final List<String> KEYS = List.of("bits", "bucket_size", "lr", "method", "momentum", "seed");

    @Test
    void distanceCountsEditsAndSwaps() {
        assertEquals(0, Suggestions.distance("bits", "bits"));
        assertEquals(1, Suggestions.distance("bucketsize", "bucket_size"));
        assertEquals(1, Suggestions.distance("btis", "bits"));
        assertEquals(3, Suggestions.distance("kitten", "sitting"));
        assertEquals(4, Suggestions.distance("", "bits"));
    }

    @Test
    void closeNamesAreSuggested() {
        assertEquals(Optional.of("bucket_size"), Suggestions.closest("bucketsize", KEYS));
        assertEquals(Optional.of("bits"), Suggestions.closest("btis", KEYS));
        assertEquals(Optional.of("method"), Suggestions.closest("Method", KEYS));
        assertEquals(Optional.of("bucket_size"), Suggestions.closest("bucket", KEYS));
        assertEquals(Optional.of("momentum"), Suggestions.closest("momentum_decay", KEYS));
        assertEquals(Optional.of("lr"), Suggestions.closest("lt", KEYS));
    }

    @Test
    void farNamesAreNot() {
        assertEquals(Optional.empty(), Suggestions.closest("zzz", KEYS));
        assertEquals(Optional.empty(), Suggestions.closest("learning_rate", KEYS));
        assertEquals(Optional.empty(), Suggestions.closest("x", KEYS));
        assertEquals("", Suggestions.didYouMean("zzz", KEYS));
        assertEquals("; did you mean 'seed'?", Suggestions.didYouMean("seeds", KEYS));
    }

    @Test
    void tiesGoToTheAlphabeticallyFirst() {
        assertEquals(Optional.of("bat"), Suggestions.closest("bet", List.of("bit", "bat")));
    }
}
