package org.gridrun.reports.paper;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeriesMatchTest {
    private static SeriesSpec series(Map<String, String> match) {
        return new SeriesSpec("s", Color.BLACK, match, 1);
    }

    @Test
    void everyMatchedParamMustAgreeAsTextOrAsANumber() {
        SeriesSpec nuq = series(Map.of("method", "nuq", "mul", "0.5"));
        assertTrue(nuq.matches(Map.of("method", "nuq", "mul", 0.50, "seed", 2L), Map.of()));
        assertTrue(nuq.matches(Map.of("method", "nuq", "mul", ".5"), Map.of()));
        assertFalse(nuq.matches(Map.of("method", "nuq", "mul", 0.25), Map.of()));
        assertFalse(nuq.matches(Map.of("method", "alq", "mul", 0.5), Map.of()));
        assertFalse(nuq.matches(Map.of("method", "nuq"), Map.of()), "a param the experiment lacks does not match");
        assertTrue(series(Map.of("ngpu", "4")).matches(Map.of("ngpu", 4L), Map.of()));
        assertFalse(series(Map.of("ngpu", "4")).matches(Map.of("ngpu", 1L), Map.of()));
    }

    @Test
    void aKeyTheGridDidNotSetIsLookedUpInTheResolvedConfig() {
        SeriesSpec sgd = series(Map.of("method", "none", "ngpu", "4"));
        assertTrue(sgd.matches(Map.of("method", "none"), Map.of("method", "none", "ngpu", 4)));
        assertFalse(sgd.matches(Map.of("method", "none", "ngpu", 1L), Map.of("ngpu", 4)), "params win over config");
    }

    @Test
    void theGridsEmptyFlagMatchesTrue() {
        assertTrue(series(Map.of("symmetric", "true")).matches(Map.of("symmetric", ""), Map.of()));
        assertFalse(series(Map.of("symmetric", "true")).matches(Map.of("symmetric", "false"), Map.of()));
    }
}
