package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.train.DeviceCodecTiming;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code bench compressors --backend cuda}'s measurement: which methods it times, and rows that add up. */
class DeviceCodecTimingTest {
    @Test
    void theMethodsThatPlanForTheDeviceWithTheirDefaultsAreTheOnesTimed() {
        assertEquals(List.of("bf16", "dgc", "efsignsgd", "fp16", "fp8", "jointsq", "mcgq", "natural", "none", "nuq",
                "onebit", "qinf", "qsgd", "randomk", "s2fp8", "signsgd", "signum", "smaq", "threshold", "topk", "trn"),
                DeviceCodecTiming.deviceMethods().stream().sorted().toList());
    }

    @Test
    void powerSgdStepsOnTheDeviceButHasNoCodecToTime() {
        assertTrue(Compressors.stepsOnDevice("powersgd"), "powersgd's default variant runs its step on the device");
        assertTrue(!Compressors.stepsOnDevice("qsgd"), "qsgd encodes through the codec");
        assertTrue(!DeviceCodecTiming.deviceMethods().contains("powersgd"), DeviceCodecTiming.deviceMethods()
                .toString());
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void rowsGiveThroughputAndBitsAgainstTheCopy(GpuTarget target) {
        try (Backend backend = target.backend()) {
            List<DeviceCodecTiming.Row> rows = DeviceCodecTiming.measure(backend, List.of("qsgd", "trn", "fp8",
                    "signsgd"), TensorLayout.flat(5000), 2);
            assertEquals(List.of("copy", "qsgd", "trn", "fp8", "signsgd"),
                    rows.stream().map(DeviceCodecTiming.Row::method).toList());
            for (DeviceCodecTiming.Row r : rows) {
                assertTrue(r.gbps() > 0 && Double.isFinite(r.gbps()), r.toString());
                assertTrue(r.ratioToCopy() > 0 && Double.isFinite(r.ratioToCopy()), r.toString());
            }
            // qsgd's defaults: 4 bits a value, one float32 norm per 8192-value bucket (one of 5000 values)
            assertEquals(4 + 32.0 / 5000, rows.get(1).bitsPerValue(), 1e-12);
            // fp8: one byte a value; signsgd: one bit a value and its float32 scale
            assertEquals(8, rows.get(3).bitsPerValue(), 1e-12);
            assertEquals(1 + 32.0 / 5000, rows.get(4).bitsPerValue(), 1e-12);
        }
    }

    /** JointSQ bound to a layout of two tensors: a width map and scales each, within its value-bit budget. */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void jointsqIsTimedOnTheLayoutsTensors(GpuTarget target) {
        TensorLayout layout = TensorLayout.of(List.of("conv", "fc"), List.of(new int[] {32, 16, 3, 3},
                new int[] {10, 200}));
        try (Backend backend = target.backend()) {
            List<DeviceCodecTiming.Row> rows = DeviceCodecTiming.measure(backend, List.of("jointsq"), layout, 2);
            DeviceCodecTiming.Row jointsq = rows.get(1);
            assertEquals("jointsq", jointsq.method());
            assertTrue(jointsq.gbps() > 0 && Double.isFinite(jointsq.gbps()), jointsq.toString());
            // rate 0.032: about a bit of values and 0.6-2 of map a value, far below float32
            assertTrue(jointsq.bitsPerValue() > 0.5 && jointsq.bitsPerValue() < 4, jointsq.toString());
        }
    }

    @Test
    void aBackendWithoutADeviceCodecIsRefused() {
        try (Backend cpu = new CpuBackend()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DeviceCodecTiming.measure(cpu, List.of("qsgd"), TensorLayout.flat(100), 1));
            assertTrue(e.getMessage().contains("encodes on the host"), e.getMessage());
        }
    }
}
