package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.model.nn.Models;
import org.gridrun.engine.model.nn.Shape;
import org.gridrun.engine.model.nn.VitSizes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole models on the CUDA backend compute the CPU backend's loss and gradient: mlp, lenet5 (dropout masks
 * included), resnet20 (batch norm, option-A shortcuts), resnet18 (padded max pooling, projection shortcuts) and a
 * wide ResNet (pre-activation blocks, dropout), from the same initial weights and batch. On the GPU at their real
 * input sizes or near; on the emulator at a smaller image and batch, which exercises the same kernels. resnet18 gets
 * 64×64 images there: at 32×32 its last stage is 1×1, and a batch norm of 2 values per channel is ill-conditioned
 * enough to put float rounding near the tolerance.
 *
 * <p>resnet18 and the wide ResNet are checked by the norm of the gradient difference: at their sizes a step's
 * gradient depends on the order of float sums through ties that flip (max pooling, ReLU at zero), so it differs
 * element-wise even between the CPU's own two paths. Measured on a 2-core x86 host: the CPU backend with OpenBLAS and
 * oneDNN against the same backend with the Java Vector BLAS and im2col differs by 8.4e-3 of the largest gradient
 * (resnet18, 64×64, batch 16) and 7.3e-4 (wrn-16-4, 32×32, batch 32) element-wise, and by 5.8e-3 and 8.7e-4 of the
 * gradient's norm.
 */
class CudaModelAgreementTest {
    /** Gradients agree within this, relative to the largest gradient magnitude. */
    private static final double TOLERANCE = 1e-4;
    /**
     * For the models whose gradient is rounding-sensitive (see the class comment): the norm of the difference within
     * this share of the gradient's norm, about 10× what the CPU's two paths differ by; a wrong kernel is off by O(1).
     */
    private static final double NORM_TOLERANCE = 5e-2;

    private record Result(double loss, float[] gradient, float[] statistics) {
    }

    private static Result step(Backend backend, String name, Shape input, int batch, VitSizes vit) {
        try (Model model = Models.create(name, backend, input, 10, List.of(64, 32), true, vit);
             Model.Workspace ws = model.newWorkspace(batch)) {
            model.initialize(5);
            Tensor x = backend.allocate(batch, model.inputSize());
            Tensor labels = backend.allocate(batch, 1);
            Tensor gradient = backend.allocate(1, model.parameterCount());
            SplittableRandom random = new SplittableRandom(17);
            float[] host = new float[x.size()];
            for (int i = 0; i < host.length; i++) {
                host[i] = (float) random.nextGaussian();
            }
            backend.upload(host, 0, x);
            float[] classes = new float[batch];
            for (int i = 0; i < batch; i++) {
                classes[i] = random.nextInt(10);
            }
            backend.upload(classes, 0, labels);
            double loss = model.forward(ws, x, labels);
            model.backward(ws, gradient);
            float[] g = new float[gradient.size()];
            backend.download(gradient, g, 0);
            float[] s = new float[model.statistics().size()];
            backend.download(model.statistics(), s, 0);
            return new Result(loss, g, s);
        }
    }

    private static void assertAgree(String name, Shape input, int batch, GpuTarget target) {
        assertAgree(name, input, batch, target, VitSizes.CIFAR, false);
    }

    private static void assertAgree(String name, Shape input, int batch, GpuTarget target, VitSizes vit,
                                    boolean byNorm) {
        Result actual;
        Result again;
        // the target first: where it cannot run, the case skips before the CPU's step
        try (Backend cuda = target.backend()) {
            actual = step(cuda, name, input, batch, vit);
            again = step(cuda, name, input, batch, vit);
        }
        Result expected;
        try (Backend cpu = new CpuBackend()) {
            expected = step(cpu, name, input, batch, vit);
        }
        assertEquals(expected.loss(), actual.loss(), 1e-5 * Math.max(1, Math.abs(expected.loss())), name + " loss");
        double scale = 0;
        for (float v : expected.gradient()) {
            scale = Math.max(scale, Math.abs(v));
        }
        assertTrue(scale > 0, "the gradient is not all zero");
        double worst = 0;
        int at = -1;
        for (int i = 0; i < expected.gradient().length; i++) {
            double d = Math.abs(expected.gradient()[i] - actual.gradient()[i]) / scale;
            if (!(d <= worst)) {
                worst = d;
                at = i;
            }
        }
        double norm = 0;
        double differenceNorm = 0;
        for (int i = 0; i < expected.gradient().length; i++) {
            double d = (double) expected.gradient()[i] - actual.gradient()[i];
            norm += (double) expected.gradient()[i] * expected.gradient()[i];
            differenceNorm += d * d;
        }
        double relative = Math.sqrt(differenceNorm / norm);
        System.out.println(target + ": " + name + " " + input + " x" + batch + ": loss " + actual.loss() + " (cpu "
                + expected.loss() + "), worst gradient difference " + worst + " of the largest, " + relative
                + " of the norm");
        if (byNorm) {
            assertTrue(relative <= NORM_TOLERANCE, name + ": the gradient differs by " + relative + " of its norm");
        } else {
            assertTrue(worst <= TOLERANCE, name + ": gradient " + at + " differs by " + worst + " of the largest ("
                    + scale + "): cpu " + (at < 0 ? "" : expected.gradient()[at] + ", cuda " + actual.gradient()[at]));
        }
        assertArrayEquals(expected.statistics(), actual.statistics(), 1e-4f, name + " batch-norm statistics");
        assertArrayEquals(actual.gradient(), again.gradient(), 0f, name + ": the same step twice gives the same bits");
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void mlpGradientsAgreeWithTheCpu(GpuTarget target) {
        assertAgree("mlp", Shape.flat(784), target == GpuTarget.DEVICE ? 128 : 16, target);
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void lenet5GradientsAgreeWithTheCpu(GpuTarget target) {
        assertAgree("lenet5", new Shape(28, 28, 1), target == GpuTarget.DEVICE ? 64 : 2, target);
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void resnet18GradientsAgreeWithTheCpu(GpuTarget target) {
        boolean device = target == GpuTarget.DEVICE;
        assertAgree("resnet18", new Shape(64, 64, 3), device ? 16 : 2, target, VitSizes.CIFAR, device);
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void wideResnetGradientsAgreeWithTheCpu(GpuTarget target) {
        boolean device = target == GpuTarget.DEVICE;
        assertAgree(device ? "wrn-16-4" : "wrn-10-2", device ? new Shape(32, 32, 3) : new Shape(8, 8, 3),
                device ? 32 : 2, target, VitSizes.CIFAR, device);
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void resnet20GradientsAgreeWithTheCpu(GpuTarget target) {
        boolean device = target == GpuTarget.DEVICE;
        assertAgree("resnet20", device ? new Shape(32, 32, 3) : new Shape(8, 8, 3), device ? 32 : 2, target);
    }

    /** The ViT on the GPU; on the emulator a narrow one (width 24, 3 heads, depth 2) on 16x16 images. */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void vitGradientsAgreeWithTheCpu(GpuTarget target) {
        boolean device = target == GpuTarget.DEVICE;
        assertAgree("vit", device ? new Shape(32, 32, 3) : new Shape(16, 16, 3), device ? 32 : 2, target,
                device ? VitSizes.CIFAR : new VitSizes(4, 24, 2, 3, 48), false);
    }
}
