package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentTest {

    @Test
    void withoutTextsTheValuesStringFormsAreUsedInKeyOrder() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("method", "qsgd");
        params.put("lr", 0.5);
        params.put("bits", 4L);
        Experiment x = new Experiment("g", "r", 0, "r_000", "0123456789abcdef", params);
        assertEquals(List.of("qsgd", "0.5", "4"), List.copyOf(x.texts().values()));
        assertEquals(List.of("method", "lr", "bits"), List.copyOf(x.params().keySet()));
    }

    @Test
    void textsMustCoverTheSameKeys() {
        assertThrows(IllegalArgumentException.class, () -> new Experiment("g", "r", 0, "r_000", "id",
                Map.of("bits", 4L), Map.of("lr", "0.1")));
    }
}
