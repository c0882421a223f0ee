package org.gridrun.engine.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Finite-difference checks of every layer type's backward pass: the analytic gradient of the mean loss with respect
 * to sampled parameters of every tensor must match central differences of the loss.
 *
 * <p>Each layer type sits between parameterised layers, so its input gradient is checked too: an error in it shows
 * in the gradients of the parameters before it.
 */
class GradientCheckTest {
    /**
     * A relative error above which a gradient counts as off. A few may be: a central difference across a ReLU's kink
     * (batch norm centres its outputs on it) is wrong by design, so up to one in twenty is tolerated, while a wrong
     * formula puts most of a tensor's gradients off.
     */
    private static final double OFF = 5e-2;

    private final CpuBackend backend = new CpuBackend();

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void convolutionPaddingBiasMaxPoolReluDropoutLinear() {
        check(new Shape(7, 7, 2), 3, b -> b.conv("c1", 4, 3, 1, 1, true, Init.FAN_IN_UNIFORM).dropout(0.3, true)
                .maxPool(2, 2).relu().linear("fc1", 6, Init.FAN_IN_UNIFORM).relu().dropout(0.25, false)
                .linear("fc2", 3, Init.FAN_IN_UNIFORM));
    }

    @Test
    void stridedConvolutionBatchNormMeanPool() {
        check(new Shape(9, 8, 3), 4, b -> b.conv("c1", 5, 3, 2, 0, false, Init.KAIMING_NORMAL).batchNorm("bn1")
                .relu().conv("c2", 4, 1, 1, 0, false, Init.KAIMING_NORMAL).batchNorm("bn2").relu().meanPool()
                .linear("fc", 4, Init.KAIMING_NORMAL));
    }

    @Test
    void sameConvolutionsTakeTheFlippedKernelPathWithUnequalChannels() {
        // c2 (3x3, 3 -> 5 channels) and c3 (5x5 padding 2, 5 -> 2) back-propagate through flipped kernels.
        check(new Shape(6, 5, 2), 3, b -> b.conv("c1", 3, 3, 1, 1, true, Init.FAN_IN_UNIFORM).relu()
                .conv("c2", 5, 3, 1, 1, true, Init.FAN_IN_UNIFORM).relu()
                .conv("c3", 2, 5, 1, 2, false, Init.FAN_IN_UNIFORM).relu().linear("fc", 3, Init.FAN_IN_UNIFORM));
    }

    @Test
    void residualBlocksWithIdentityAndOptionAShortcuts() {
        check(new Shape(6, 6, 4), 3, b -> b.conv("c1", 4, 3, 1, 1, false, Init.KAIMING_NORMAL).batchNorm("bn1")
                .relu().basicBlock("b1", 4, 1, Init.KAIMING_NORMAL).basicBlock("b2", 8, 2, Init.KAIMING_NORMAL)
                .meanPool().linear("fc", 3, Init.KAIMING_NORMAL));
    }

    @Test
    void paddedMaxPoolAfterAStridedStem() {
        // The ResNet stem in small: a strided 7x7 conv with padding 3, then 3x3 max pooling, stride 2, padding 1.
        check(new Shape(10, 9, 2), 3, b -> b.conv("conv1", 4, 7, 2, 3, false, Init.KAIMING_NORMAL_FAN_OUT)
                .batchNorm("bn1").relu().maxPool(3, 2, 1).linear("fc", 3, Init.FAN_IN_UNIFORM));
    }

    @Test
    void basicBlocksWithProjectionShortcuts() {
        // b1: identity; b2: stride 2 and more channels, so a strided 1x1 conv and a batch norm on the shortcut.
        check(new Shape(6, 6, 3), 3, b -> b.conv("c1", 4, 3, 1, 1, false, Init.KAIMING_NORMAL).batchNorm("bn1")
                .relu().projectedBasicBlock("b1", 4, 1, Init.KAIMING_NORMAL_FAN_OUT)
                .projectedBasicBlock("b2", 6, 2, Init.KAIMING_NORMAL_FAN_OUT).meanPool()
                .linear("fc", 3, Init.FAN_IN_UNIFORM));
    }

    @Test
    void bottleneckBlocks() {
        // b1: stride 1 but 4x the channels, a pointwise projection; b2: identity; b3: stride 2 and a projection.
        check(new Shape(6, 5, 3), 3, b -> b.conv("c1", 4, 3, 1, 1, false, Init.KAIMING_NORMAL).batchNorm("bn1")
                .relu().bottleneckBlock("b1", 2, 1, Init.KAIMING_NORMAL_FAN_OUT)
                .bottleneckBlock("b2", 2, 1, Init.KAIMING_NORMAL_FAN_OUT)
                .bottleneckBlock("b3", 3, 2, Init.KAIMING_NORMAL_FAN_OUT).meanPool()
                .linear("fc", 3, Init.FAN_IN_UNIFORM));
    }

    @Test
    void preActivationBlocksWithDropout() {
        // b1: wider, so the pre-activation is shared and the shortcut a 1x1 conv of it; b2: identity of the raw
        // input; b3: stride 2. Dropout masks are the same in every forward of the check (same noise key).
        check(new Shape(6, 6, 3), 3, b -> b.conv("conv1", 3, 3, 1, 1, false, Init.KAIMING_NORMAL_FAN_OUT)
                .preActBlock("b1", 4, 1, 0.3, Init.KAIMING_NORMAL_FAN_OUT)
                .preActBlock("b2", 4, 1, 0.3, Init.KAIMING_NORMAL_FAN_OUT)
                .preActBlock("b3", 6, 2, 0, Init.KAIMING_NORMAL_FAN_OUT).batchNorm("bn1").relu().meanPool()
                .linear("fc", 3, Init.FAN_IN_UNIFORM, Init.ZEROS));
    }

    @Test
    void flatBatchNormOnFeatures() {
        check(Shape.flat(6), 3, b -> b.linear("fc1", 5, Init.FAN_IN_UNIFORM).batchNorm("bn").relu()
                .linear("fc2", 3, Init.FAN_IN_UNIFORM));
    }

    @Test
    void wholeResNet8() {
        Network net = Models.resnet(backend, 8, new Shape(8, 8, 3), 4);
        // Eight layers of float rounding, batch-5 batch norm and ReLU kinks put this median at 1.7e-3 to 2.2e-3
        // depending only on the order of float sums (measured on both sides of the chunked convolution), so it
        // gets 3e-3; the convolution's arithmetic is checked against a double oracle in CpuConvolutionTest.
        check(net, 4, 3e-3);
    }

    @Test
    void transformerLayersPatchEmbeddingClassTokenAttentionGeluLayerNorm() {
        // Two heads of 3 channels over 2x2 patches of a 4x6 image: 6 patch tokens and the class token.
        check(new Shape(4, 6, 2), 3, b -> b.conv("patch", 6, 2, 2, 0, true, Init.FAN_IN_UNIFORM)
                .classToken("cls", "pos", Init.KAIMING_NORMAL).transformerBlock("b0", 2, 8, Init.KAIMING_NORMAL)
                .transformerBlock("b1", 3, 5, Init.KAIMING_NORMAL).firstToken().layerNorm("norm")
                .linear("head", 3, Init.KAIMING_NORMAL));
    }

    @Test
    void wholeVit() {
        check(Models.vit(backend, new Shape(8, 8, 3), 4, new VitSizes(4, 8, 2, 2, 12)), 4, 2e-3);
    }

    private void check(Shape input, int classes, Consumer<NetBuilder> recipe) {
        check(new Network(backend, "test", Map.of(), input, classes, recipe), classes, 2e-3);
    }

    /** Compares the gradient at sampled parameters of every tensor with central differences of the loss. */
    private void check(Network net, int classes, double medianLimit) {
        net.initialize(7);
        int batch = 5;
        int features = net.inputSize();
        CounterRng rng = new CounterRng(11, 0);
        float[] hostX = new float[batch * features];
        float[] hostY = new float[batch];
        for (int i = 0; i < hostX.length; i++) {
            hostX[i] = (float) (2 * rng.nextDouble() - 1);
        }
        for (int i = 0; i < batch; i++) {
            hostY[i] = i % classes;
        }
        Tensor x = backend.allocate(batch, features);
        Tensor y = backend.allocate(batch, 1);
        backend.upload(hostX, 0, x);
        backend.upload(hostY, 0, y);
        Tensor gradient = backend.allocate(1, net.parameterCount());
        Model.Workspace ws = net.newWorkspace(batch);
        ws.reseed(3);
        net.forward(ws, x, y);
        net.backward(ws, gradient);
        float[] analytic = new float[net.parameterCount()];
        backend.download(gradient, analytic, 0);
        float[] params = new float[net.parameterCount()];
        backend.download(net.parameters(), params, 0);

        int checked = 0;
        int off = 0;
        List<Double> errors = new ArrayList<>();
        String firstOff = "";
        for (var tensor : net.layout().tensors()) {
            for (int k = 0; k < Math.min(12, tensor.size()); k++) {
                int i = tensor.offset() + (int) ((k * 7919L) % tensor.size());
                double h = 5e-4;
                double up = lossWith(net, ws, x, y, params, i, params[i] + h);
                double down = lossWith(net, ws, x, y, params, i, params[i] - h);
                double numeric = (up - down) / (2 * h);
                double error = Math.abs(numeric - analytic[i]) / (Math.abs(numeric) + Math.abs(analytic[i]) + 1e-2);
                errors.add(error);
                if (error > OFF && off++ == 0) {
                    firstOff = tensor.name() + "[" + (i - tensor.offset()) + "]: analytic " + analytic[i]
                            + ", numeric " + numeric;
                }
                checked++;
            }
        }
        assertTrue(checked > 10, "checked " + checked);
        java.util.Collections.sort(errors);
        double median = errors.get(errors.size() / 2);
        assertTrue(median < medianLimit, "median relative error " + median);
        assertTrue(off <= checked / 20, off + " of " + checked + " gradients differ by more than " + OFF
                + ", the first " + firstOff);
        ws.close();
    }

    private double lossWith(Network net, Model.Workspace ws, Tensor x, Tensor y, float[] params, int i,
                            double value) {
        float saved = params[i];
        params[i] = (float) value;
        backend.upload(params, 0, net.parameters());
        double loss = net.forward(ws, x, y);
        params[i] = saved;
        backend.upload(params, 0, net.parameters());
        return loss;
    }

    @Test
    void parameterCountsMatchThePublishedCifarResNetsAndTheSeedsConvnet() {
        assertEquals(269_722, Models.resnet(backend, 20, new Shape(32, 32, 3), 10).parameterCount());
        assertEquals(464_154, Models.resnet(backend, 32, new Shape(32, 32, 3), 10).parameterCount());
        assertEquals(853_018, Models.resnet(backend, 56, new Shape(32, 32, 3), 10).parameterCount());
        assertEquals(658_586, Models.resnet(backend, 44, new Shape(32, 32, 3), 10).parameterCount());
        assertEquals(2_265_602, Models.lenet5(backend, new Shape(28, 28, 1), 10, true).parameterCount());
    }

    @Test
    void parameterCountsMatchTorchvisionAndThePublishedWideResNets() {
        Shape imagenet = new Shape(224, 224, 3);
        assertEquals(11_689_512, Models.imagenetResnet(backend, 18, imagenet, 1000).parameterCount());
        assertEquals(21_797_672, Models.imagenetResnet(backend, 34, imagenet, 1000).parameterCount());
        assertEquals(25_557_032, Models.imagenetResnet(backend, 50, imagenet, 1000).parameterCount());
        Shape cifar = new Shape(32, 32, 3);
        assertEquals(36_479_194, Models.wideResnet(backend, "wrn-28-10", cifar, 10, true).parameterCount());
        assertEquals(2_748_890, Models.wideResnet(backend, "wrn-16-4", cifar, 10, true).parameterCount());
    }

    @Test
    void vitHasTheIssuesSizes() {
        // timm's vit with embed_dim 192, depth 6, 3 heads, mlp_ratio 4, patch 4 on 32x32x3 and 10 classes: the
        // patch conv 192·48 + 192, class token 192, positions 65·192, per block 2·2·192 + 576·192 + 576 + 192·192
        // + 192 + 768·192 + 768 + 192·768 + 192, final norm 2·192 and head 192·10 + 10.
        int block = 4 * 192 + 576 * 192 + 576 + 192 * 192 + 192 + 768 * 192 + 768 + 192 * 768 + 192;
        int expected = 192 * 48 + 192 + 192 + 65 * 192 + 6 * block + 2 * 192 + 192 * 10 + 10;
        Network vit = (Network) Models.create("vit", backend, new Shape(32, 32, 3), 10, List.of(), true);
        assertEquals(expected, vit.parameterCount());
        assertEquals(2_693_578, expected);
        var qkv = vit.layout().tensors().stream().filter(t -> t.name().equals("blocks.0.attn.qkv.weight"))
                .findFirst().orElseThrow();
        assertEquals(576, qkv.rows(), "compressors see the attention weights as 576 x 192");
        assertEquals(192, qkv.columns());
        IllegalArgumentException patch = assertThrows(IllegalArgumentException.class, () -> Models.vit(backend,
                new Shape(30, 30, 3), 10, VitSizes.CIFAR));
        assertEquals("a ViT's patch must divide the image's sides, found patch 4 for 30x30x3", patch.getMessage());
    }

    @Test
    void modelNamesFollowTheirRules() {
        Network wrn = (Network) Models.create("wrn-10-2", backend, new Shape(32, 32, 3), 10, List.of(), true);
        assertEquals("wrn-10-2 32x32x3->10", wrn.describe());
        assertEquals(0.3, wrn.config().get("dropout"));
        assertEquals(List.of("conv1.weight", "block1.layer.0.bn1.weight", "block1.layer.0.bn1.bias",
                "block1.layer.0.conv1.weight", "block1.layer.0.bn2.weight", "block1.layer.0.bn2.bias",
                "block1.layer.0.conv2.weight", "block1.layer.0.convShortcut.weight"), wrn.layout().tensors()
                .stream().map(t -> t.name()).limit(8).toList());
        Network resnet18 = (Network) Models.create("resnet18", backend, new Shape(32, 32, 3), 10, List.of(), true);
        assertEquals(List.of("layer2.0.conv1.weight", "layer2.0.bn1.weight", "layer2.0.bn1.bias",
                "layer2.0.conv2.weight", "layer2.0.bn2.weight", "layer2.0.bn2.bias", "layer2.0.downsample.0.weight",
                "layer2.0.downsample.1.weight", "layer2.0.downsample.1.bias"), resnet18.layout().tensors().stream()
                .map(t -> t.name()).filter(n -> n.startsWith("layer2.0.")).toList());
        IllegalArgumentException depth = assertThrows(IllegalArgumentException.class, () -> Models.create(
                "wrn-27-10", backend, new Shape(32, 32, 3), 10, List.of(), true));
        assertEquals("a wide ResNet's depth must be 6n + 4 with n >= 1 (10, 16, 22, 28, ...), found 27 in "
                + "'wrn-27-10'", depth.getMessage());
        IllegalArgumentException seedSpelling = assertThrows(IllegalArgumentException.class, () -> Models.create(
                "wrn28-10", backend, new Shape(32, 32, 3), 10, List.of(), true));
        assertTrue(seedSpelling.getMessage().contains("e.g. wrn-28-10, found 'wrn28-10'"), seedSpelling.getMessage());
    }
}
