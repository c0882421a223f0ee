package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridrun.engine.simd.Simd;
import org.junit.jupiter.api.Test;

/** The BLAS the CPU backend runs, and what {@code list backends} says of it. */
class NetlibBlasTest {
    @Test
    void theReferenceBlasIsNamedWhereItRuns() {
        boolean reference = NetlibBlas.referenceMapped();
        String described = NetlibBlas.describe();
        assertEquals(reference && CpuBackend.referenceBlas(), described.contains("reference BLAS"), described);
    }

    @Test
    void probeNamesTheBlasAndTheQuantizersPath() {
        String detail = new CpuBackendProvider().probe().detail();
        assertTrue(detail.startsWith(CpuBackend.blasName()), detail);
        assertTrue(detail.endsWith("quantizer kernels: " + Simd.describe()), detail);
    }
}
