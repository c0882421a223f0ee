package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void experimentsAreEqualWhenEveryFieldIs(@TempDir Path dir) {
        String yaml = "runs: {r: {grid: {method: [qsgd, {nuq: {mul: 0.5}}], bits: 4}}}\n";
        Experiment x = Grids.expand(dir, yaml).get(1);
        Experiment again = Grids.expand(dir, yaml).get(1);
        Experiment built = new Experiment(x.grid(), x.run(), x.index(), x.name(), x.id(), x.params(), x.texts());
        assertEquals(x, again);
        assertEquals(x, built);
        assertEquals(built, x);
        assertEquals(x.hashCode(), built.hashCode());
        assertEquals(x.toString(), built.toString());
        assertNotEquals(x, Grids.expand(dir, yaml).get(0));
        assertEquals("Experiment[grid=g, run=r, index=1, name=r_001_method_nuq,mul_0.5,bits_4, id=" + x.id()
                + ", params={method=nuq, mul=0.5, bits=4}, texts={method=nuq, mul=0.5, bits=4}]", x.toString());
    }

    @Test
    void textsMustCoverTheSameKeys() {
        assertThrows(IllegalArgumentException.class, () -> new Experiment("g", "r", 0, "r_000", "id",
                Map.of("bits", 4L), Map.of("lr", "0.1")));
    }
}
