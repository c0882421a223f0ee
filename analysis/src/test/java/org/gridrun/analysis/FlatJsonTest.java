package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlatJsonTest {
    @Test
    void roundTripKeepsOrderAndTypes() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("z", "a \"quoted\"\\ line\nbreak\u0001");
        map.put("bits", 4L);
        map.put("lr", 1.0);
        map.put("tiny", 1e-12);
        map.put("nan", Double.NaN);
        map.put("neg", Double.NEGATIVE_INFINITY);
        map.put("flag", false);
        map.put("none", null);
        Map<String, Object> back = FlatJson.read(FlatJson.write(map));
        assertEquals(map, back);
        assertEquals(List.copyOf(map.keySet()), List.copyOf(back.keySet()));
        assertEquals(Double.class, back.get("lr").getClass());
        assertEquals(Long.class, back.get("bits").getClass());
    }

    @Test
    void writesPlainJson() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("method", "qsgd");
        map.put("bits", 4L);
        assertEquals("{\"method\":\"qsgd\",\"bits\":4}", FlatJson.write(map));
        assertEquals(Map.of(), FlatJson.read(" { } "));
    }

    @Test
    void malformedTextFails() {
        assertThrows(IllegalArgumentException.class, () -> FlatJson.read("{\"a\":oops}"));
    }
}
