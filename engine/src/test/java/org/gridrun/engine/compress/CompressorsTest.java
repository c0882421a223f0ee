package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.junit.jupiter.api.Test;

class CompressorsTest {
    @Test
    void builtInsAreRegisteredThroughTheServiceLoader() {
        List<String> names = Compressors.names();
        assertTrue(names.containsAll(List.of("none", "qsgd")), names.toString());
        assertEquals(names.stream().sorted().toList(), names, "sorted");
        List<String> qsgdParams = Compressors.provider("qsgd").parameters().stream().map(ConfigKey::name).toList();
        assertEquals(List.of("bits", "bucket_size", "per_layer", "ignore_small_buckets"), qsgdParams);
        assertEquals(4L, Compressors.provider("qsgd").parameters().get(0).defaultValue());
        assertEquals(Aggregation.ALL_REDUCE, Compressors.provider("none").aggregation());
    }

    @Test
    void unknownMethodListsTheKnownOnes() {
        ConfigException e = assertThrows(ConfigException.class, () -> Compressors.create("no_such", Map.of(), 1));
        assertEquals("unknown compressor 'no_such'; known: " + String.join(", ", Compressors.names()), e.getMessage());
        assertTrue(e.getMessage().contains("none, "), e.getMessage());
    }

    @Test
    void noneSendsExactFloat32() {
        Compressor none = Compressors.create("none", Map.of(), 1).copy(2);
        float[] g = {1.5f, -0f, Float.MIN_VALUE, 3.4e38f, -7.25f};
        Payload p = none.encode(g, 1, 3);
        assertEquals(96, p.bits());
        assertEquals(12, p.bytes().length);
        float[] out = new float[5];
        none.decode(p, out, 2);
        assertArrayEquals(new float[] {0, 0, -0f, Float.MIN_VALUE, 3.4e38f}, out);
        assertEquals(Aggregation.ALL_REDUCE, none.aggregation());
        assertEquals(Map.of(), none.config());
    }

    @Test
    void noneHasNoStateToSave() throws IOException {
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        Compressors.create("none", Map.of(), 1).copy(2).saveState(new DataOutputStream(state));
        assertEquals(0, state.size());
    }

    @Test
    void payloadChecksItsLength() {
        assertThrows(IllegalArgumentException.class, () -> new Payload(new byte[2], 17, 1));
        assertEquals(3, new Payload(new byte[3], 17, 1).bytes().length);
        assertEquals(0, new Payload(new byte[0], 0, 0).bytes().length);
    }
}
