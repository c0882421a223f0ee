package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** oneDNN's convolutions against the im2col path on odd shapes, their repeatability, and the choice of path. */
class OneDnnConvolutionTest {
    private final Convolver im2col = new CpuConvolution(NetlibBlas.instance());

    /**
     * Odd shapes: stride 2, no and wide padding, 1×1, channels and filters not multiples of 8, single images, a batch
     * split in unequal halves.
     */
    private static final Case[] CASES = {
        new Case(ConvGeometry.square(8, 8, 3, 3, 1, 1), 5, 16),
        new Case(ConvGeometry.square(9, 7, 5, 3, 2, 1), 3, 7),
        new Case(ConvGeometry.square(9, 9, 12, 3, 2, 0), 1, 10),
        new Case(ConvGeometry.square(6, 5, 13, 1, 1, 0), 2, 9),
        new Case(ConvGeometry.square(7, 7, 6, 1, 2, 0), 4, 24),
        new Case(ConvGeometry.square(5, 6, 4, 5, 1, 2), 1, 3),
        new Case(new ConvGeometry(10, 8, 17, 3, 1, 2, 1), 2, 33),
        // large enough that the backend splits the batch, 3 images and 4
        new Case(ConvGeometry.square(12, 12, 5, 3, 1, 1), 7, 24),
    };

    private record Case(ConvGeometry g, int images, int filters) {
    }

    @Test
    void forwardAgreesWithIm2col() {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        Convolver oneDnn = new OneDnnConvolution();
        for (Case c : CASES) {
            Random rng = new Random(11);
            float[] x = TestTensors.gaussian(rng, c.images * c.g.inputSize() + 3);
            float[] w = TestTensors.gaussian(rng, c.filters * c.g.patchSize() + 2);
            int outValues = c.images * c.g.outPositions() * c.filters;
            float[] expected = new float[outValues + 1];
            float[] actual = new float[outValues + 1];
            im2col.forward(x, 3, c.g, c.images, w, 2, c.filters, expected, 1);
            oneDnn.forward(x, 3, c.g, c.images, w, 2, c.filters, actual, 1);
            assertArrayEquals(expected, actual, 1e-4f * (float) Math.sqrt(c.g.patchSize()), c.toString());
        }
    }

    @Test
    void weightGradientAgreesWithIm2col() {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        Convolver oneDnn = new OneDnnConvolution();
        for (Case c : CASES) {
            Random rng = new Random(12);
            float[] x = TestTensors.gaussian(rng, c.images * c.g.inputSize());
            float[] dy = TestTensors.gaussian(rng, c.images * c.g.outPositions() * c.filters + 5);
            float[] expected = new float[c.filters * c.g.patchSize() + 4];
            float[] actual = expected.clone();
            im2col.weightGradient(x, 0, c.g, c.images, dy, 5, c.filters, expected, 4);
            oneDnn.weightGradient(x, 0, c.g, c.images, dy, 5, c.filters, actual, 4);
            float tolerance = 1e-4f * (float) Math.sqrt(c.images * c.g.outPositions());
            assertArrayEquals(expected, actual, tolerance, c.toString());
        }
    }

    @Test
    void dataGradientAgreesWithIm2col() {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        Convolver oneDnn = new OneDnnConvolution();
        for (Case c : CASES) {
            Random rng = new Random(14);
            float[] dy = TestTensors.gaussian(rng, c.images * c.g.outPositions() * c.filters + 2);
            float[] w = TestTensors.gaussian(rng, c.filters * c.g.patchSize() + 3);
            float[] expected = new float[c.images * c.g.inputSize() + 1];
            float[] actual = TestTensors.gaussian(rng, expected.length);
            expected[0] = actual[0];
            im2col.dataGradient(dy, 2, c.g, c.images, w, 3, c.filters, expected, 1);
            oneDnn.dataGradient(dy, 2, c.g, c.images, w, 3, c.filters, actual, 1);
            float tolerance = 1e-4f * (float) Math.sqrt(c.filters * c.g.kernelHeight() * c.g.kernelWidth());
            assertArrayEquals(expected, actual, tolerance, c.toString());
        }
    }

    @Test
    void bothGradientsInOneCallAreTheTwoApart() {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        Convolver oneDnn = new OneDnnConvolution();
        List<Case> cases = new ArrayList<>(List.of(CASES));
        cases.add(new Case(ConvGeometry.square(16, 16, 16, 3, 1, 1), 32, 16));  // both threads share the halves
        for (Case c : cases) {
            Random rng = new Random(15);
            float[] x = TestTensors.gaussian(rng, c.images * c.g.inputSize() + 3);
            float[] dy = TestTensors.gaussian(rng, c.images * c.g.outPositions() * c.filters + 2);
            float[] w = TestTensors.gaussian(rng, c.filters * c.g.patchSize() + 1);
            float[] dwApart = new float[c.filters * c.g.patchSize() + 4];
            float[] dxApart = new float[c.images * c.g.inputSize() + 1];
            oneDnn.weightGradient(x, 3, c.g, c.images, dy, 2, c.filters, dwApart, 4);
            oneDnn.dataGradient(dy, 2, c.g, c.images, w, 1, c.filters, dxApart, 1);
            float[] dw = new float[dwApart.length];
            float[] dx = new float[dxApart.length];
            oneDnn.backward(x, 3, c.g, c.images, dy, 2, w, 1, c.filters, dw, 4, dx, 1);
            assertArrayEquals(dwApart, dw, "weight gradient, " + c);
            assertArrayEquals(dxApart, dx, "data gradient, " + c);
            float[] dwOnly = new float[dwApart.length];
            oneDnn.backward(x, 3, c.g, c.images, dy, 2, w, 1, c.filters, dwOnly, 4, null, 0);
            assertArrayEquals(dwApart, dwOnly, "weight gradient alone, " + c);
        }
    }

    /**
     * A convolver's primitives take their scratchpads from its own buffers, so they give the same results whatever
     * other threads did with oneDNN: lenet5's second convolution on one image (its data gradient asks for a
     * scratchpad), then 40 convolvers of a small shape each run on another thread and closed here, as JavaCPP's
     * deallocator destroys primitives on whatever thread, then a small convolver here, then the first again. With
     * oneDNN's library scratchpad the first convolver's buffer stays empty, and these destructions would have
     * released this thread's scratchpad (its count is per thread) and the small convolver made it smaller.
     */
    @Test
    void primitivesTakeTheirScratchpadFromTheConvolversBuffers() throws Exception {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        Case large = new Case(ConvGeometry.square(12, 12, 64, 5, 1, 0), 1, 128);
        Case small = new Case(ConvGeometry.square(6, 6, 4, 3, 1, 1), 1, 8);
        Random rng = new Random(13);
        Operands o = new Operands(rng, large.g, 1, large.filters);
        float[] x = o.x;
        float[] w = o.w;
        float[] dy = o.dy;
        float[] expectedY = new float[dy.length];
        float[] expectedDx = new float[x.length];
        im2col.forward(x, 0, large.g, 1, w, 0, large.filters, expectedY, 0);
        im2col.dataGradient(dy, 0, large.g, 1, w, 0, large.filters, expectedDx, 0);
        float[] y = new float[dy.length];
        float[] dx = new float[x.length];
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (OneDnnConvolution live = new OneDnnConvolution(); OneDnnConvolution later = new OneDnnConvolution()) {
            live.forward(x, 0, large.g, 1, w, 0, large.filters, y, 0);
            live.dataGradient(dy, 0, large.g, 1, w, 0, large.filters, dx, 0);
            assertTrue(live.scratchpadFloats(0) > 0, "the primitives' scratchpad is the convolver's buffer, found "
                    + live.scratchpadFloats(0) + " floats");
            float[] smallX = TestTensors.gaussian(rng, small.g.inputSize());
            float[] smallW = TestTensors.gaussian(rng, small.filters * small.g.patchSize());
            float[] smallY = new float[small.g.outPositions() * small.filters];
            float[] smallDx = new float[smallX.length];
            for (int i = 0; i < 40; i++) {
                OneDnnConvolution elsewhere = new OneDnnConvolution();
                other.submit(() -> {
                    elsewhere.forward(smallX, 0, small.g, 1, smallW, 0, small.filters, smallY, 0);
                    elsewhere.dataGradient(smallY, 0, small.g, 1, smallW, 0, small.filters, smallDx, 0);
                }).get();
                elsewhere.close();
            }
            later.forward(smallX, 0, small.g, 1, smallW, 0, small.filters, smallY, 0);
            Arrays.fill(y, Float.NaN);
            Arrays.fill(dx, Float.NaN);
            live.forward(x, 0, large.g, 1, w, 0, large.filters, y, 0);
            live.dataGradient(dy, 0, large.g, 1, w, 0, large.filters, dx, 0);
        } finally {
            other.shutdown();
        }
        float tolerance = 1e-4f * (float) Math.sqrt(large.g.patchSize());
        assertArrayEquals(expectedY, y, tolerance, "forward after other threads' primitives were destroyed here");
        assertArrayEquals(expectedDx, dx, tolerance, "data gradient after other threads' primitives were destroyed");
    }

    /** A training-sized shape, so that both threads share every pass: results repeat bit for bit. */
    @Test
    void repeatsBitForBit() {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        assertRepeats(ConvGeometry.square(16, 16, 16, 3, 1, 1), 32, 16, 3, 13);
    }

    /**
     * Two images of lenet5's second convolution: one per thread, the same shape on both at once, so that oneDNN's
     * primitive cache may hand both halves the same primitive, created by both at once. 200 repetitions repeat bit
     * for bit, and the data gradient is im2col's.
     */
    @Test
    void halvesOfTheSameShapeRunAtOnceRepeatably() {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        ConvGeometry g = ConvGeometry.square(12, 12, 64, 5, 1, 0);
        int images = 2;
        int filters = 128;
        Operands operands = new Operands(new Random(14), g, images, filters);
        float[][] first = assertRepeats(g, images, filters, 200, 14);
        float[] expectedDx = new float[operands.x.length];
        im2col.dataGradient(operands.dy, 0, g, images, operands.w, 0, filters, expectedDx, 0);
        assertArrayEquals(expectedDx, first[2], 1e-4f * (float) Math.sqrt(g.patchSize()), "data gradient vs im2col");
    }

    /**
     * The first call of 300 shapes new to oneDNN's primitive cache, each split in two equal halves whose threads
     * create the same primitives at once: lenet5's conv2 (64 channels into 128 filters, 5×5) on 20 × 15 image sizes,
     * the data gradient of each against im2col's. Before primitives were created one at a time
     * ({@link OneDnn#CREATION}), 1 in 30 to 1 in 50 of these shapes got a data-gradient primitive whose one half was
     * off by hundreds, call after call, on this project's AVX-512 hosts (6 of these 300, 3 runs of 3).
     */
    @Test
    void newShapesSplitInEqualHalvesAgreeWithIm2colFromTheFirstCall() {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        int images = 2;
        int filters = 128;
        List<String> wrong = new ArrayList<>();
        try (OneDnnConvolution oneDnn = new OneDnnConvolution()) {
            for (int height = 8; height < 28; height++) {
                for (int width = 8; width < 23; width++) {
                    ConvGeometry g = ConvGeometry.square(height, width, 64, 5, 1, 0);
                    Operands o = new Operands(new Random(height * 100L + width), g, images, filters);
                    float[] dx = new float[o.x.length];
                    oneDnn.backward(o.x, 0, g, images, o.dy, 0, o.w, 0, filters, new float[o.w.length], 0, dx, 0);
                    float[] expected = new float[o.x.length];
                    im2col.dataGradient(o.dy, 0, g, images, o.w, 0, filters, expected, 0);
                    double worst = 0;
                    for (int i = 0; i < dx.length; i++) {
                        worst = Math.max(worst, Math.abs(dx[i] - expected[i]));
                    }
                    if (!(worst <= 1e-4 * Math.sqrt(g.patchSize()))) {
                        wrong.add(height + "x" + width + " off by " + worst);
                    }
                }
            }
        }
        assertEquals(List.of(), wrong, "shapes whose first data gradient is not im2col's");
    }

    /**
     * Two convolvers (two backends) used at once from two threads, 40 times each: every result is the bits one
     * convolver gives alone. Their calls' first halves run at the same time, so they must share no stream, scratch
     * buffer or primitive state.
     */
    @Test
    void twoConvolversRunAtOnceFromTwoThreads() throws Exception {
        assumeTrue(OneDnn.unusableReason() == null, OneDnn.unusableReason());
        ConvGeometry g = ConvGeometry.square(12, 12, 16, 3, 1, 1);
        int images = 8;
        int filters = 32;
        float[][] alone;
        try (OneDnnConvolution oneDnn = new OneDnnConvolution()) {
            alone = convolveAll(oneDnn, g, images, filters);
        }
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                runs.add(threads.submit(() -> {
                    try (OneDnnConvolution oneDnn = new OneDnnConvolution()) {
                        for (int r = 0; r < 40; r++) {
                            float[][] results = convolveAll(oneDnn, g, images, filters);
                            for (int i = 0; i < results.length; i++) {
                                assertArrayEquals(alone[i], results[i], 0f, "result " + i + ", repetition " + r);
                            }
                        }
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get();  // a thread's failed assertion fails the test here
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** The forward pass and both gradients of one call on the operands of seed 21: y, dw, dx. */
    private static float[][] convolveAll(Convolver oneDnn, ConvGeometry g, int images, int filters) {
        Operands o = new Operands(new Random(21), g, images, filters);
        float[][] results = {new float[o.dy.length], new float[o.w.length], new float[o.x.length]};
        oneDnn.forward(o.x, 0, g, images, o.w, 0, filters, results[0], 0);
        oneDnn.backward(o.x, 0, g, images, o.dy, 0, o.w, 0, filters, results[1], 0, results[2], 0);
        return results;
    }

    /** Random images, weights and output gradient of a shape. */
    private record Operands(float[] x, float[] w, float[] dy) {
        Operands(Random rng, ConvGeometry g, int images, int filters) {
            this(TestTensors.gaussian(rng, images * g.inputSize()), TestTensors.gaussian(rng, filters * g.patchSize()),
                    TestTensors.gaussian(rng, images * g.outPositions() * filters));
        }
    }

    /**
     * Runs the forward pass, the weight and data gradients apart and both in one call {@code repetitions} times on
     * the operands of {@code seed}, alternately on a new convolver (new primitives) and on one kept, and asserts
     * that every repetition gives the first one's bits; returns the first: y, dw, dx, and dw, dx of the one call.
     */
    private static float[][] assertRepeats(ConvGeometry g, int images, int filters, int repetitions, long seed) {
        Operands o = new Operands(new Random(seed), g, images, filters);
        String[] names = {"forward", "weight gradient", "data gradient", "weight gradient in one call",
            "data gradient in one call"};
        float[][] first = null;
        try (OneDnnConvolution kept = new OneDnnConvolution()) {
            for (int r = 0; r < repetitions; r++) {
                float[][] results = {new float[o.dy.length], new float[o.w.length], new float[o.x.length],
                    new float[o.w.length], new float[o.x.length]};
                OneDnnConvolution oneDnn = r % 2 == 0 ? new OneDnnConvolution() : kept;
                oneDnn.forward(o.x, 0, g, images, o.w, 0, filters, results[0], 0);
                oneDnn.weightGradient(o.x, 0, g, images, o.dy, 0, filters, results[1], 0);
                oneDnn.dataGradient(o.dy, 0, g, images, o.w, 0, filters, results[2], 0);
                oneDnn.backward(o.x, 0, g, images, o.dy, 0, o.w, 0, filters, results[3], 0, results[4], 0);
                if (oneDnn != kept) {
                    oneDnn.close();
                }
                first = first == null ? results : first;
                for (int i = 0; i < results.length; i++) {
                    assertArrayEquals(first[i], results[i], 0f, names[i] + ", repetition " + r);
                }
            }
        }
        return first;
    }

    @Test
    void choosesThePathAskedForAndFallsBackWhereOneDnnCannotRun() {
        assertTrue(ConvPaths.oneDnn("auto", null));
        assertFalse(ConvPaths.oneDnn("auto", "no natives"));
        assertFalse(ConvPaths.oneDnn("im2col", null));
        assertFalse(ConvPaths.oneDnn(" IM2COL ", "no natives"));
        assertTrue(ConvPaths.oneDnn("onednn", null));
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> ConvPaths.oneDnn("onednn", "no natives"));
        assertEquals("-Dgridrun.conv=onednn, but no natives", missing.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ConvPaths.oneDnn("winograd", null));
        assertEquals("-Dgridrun.conv must be auto, onednn or im2col, found 'winograd'", unknown.getMessage());
    }

    @Test
    void createsTheConvolverOfThePathTaken() {
        String before = System.getProperty(ConvPaths.PROPERTY);
        try {
            System.setProperty(ConvPaths.PROPERTY, "im2col");
            assertTrue(ConvPaths.create(NetlibBlas.instance()) instanceof CpuConvolution);
            assertTrue(ConvPaths.describe().startsWith("im2col + sgemm (-Dgridrun.conv=im2col)"),
                    ConvPaths.describe());
            System.setProperty(ConvPaths.PROPERTY, "auto");
            Convolver auto = ConvPaths.create(NetlibBlas.instance());
            assertEquals(OneDnn.unusableReason() == null, auto instanceof OneDnnConvolution, OneDnn.unusableReason());
        } finally {
            if (before == null) {
                System.clearProperty(ConvPaths.PROPERTY);
            } else {
                System.setProperty(ConvPaths.PROPERTY, before);
            }
        }
    }
}
