package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The split of a payload into side bits and value bits, for methods whose formats fix it. */
class SideBitsTest {
    private static final int N = 10000;

    private static Payload encode(String method, Map<String, Object> params) {
        return Compressors.create(method, params, 3).copy(0).encode(TestGradients.gaussian(N, 1), 0, N);
    }

    @Test
    void fullPrecisionAndFloatsHaveNone() {
        assertEquals(0, encode("none", Map.of()).sideBits());
        assertEquals(0, encode("fp16", Map.of()).sideBits());
    }

    @Test
    void bucketedQuantizersSendOneNormPerBucket() {
        Payload p = encode("qsgd", Map.of("bucket_size", 1000L));
        assertEquals(10 * 32, p.sideBits());
        assertEquals(4L * N, p.valueBits());
    }

    @Test
    void sparsifiersCountTheirIndicesAsSideBits() {
        Payload p = encode("topk", Map.of("ratio", 0.01));
        assertEquals(100L * SparseFormat.indexWidth(N), p.sideBits());
        assertEquals(100L * 32, p.valueBits());
        Payload t = encode("threshold", Map.of("threshold", 2.0));
        long k = t.valueBits() / 32;
        assertEquals(SparseFormat.countWidth(N) + k * SparseFormat.indexWidth(N), t.sideBits());
    }
}
