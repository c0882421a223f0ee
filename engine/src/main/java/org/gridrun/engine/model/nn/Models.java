package org.gridrun.engine.model.nn;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.model.Mlp;
import org.gridrun.engine.model.Model;

/**
 * The models a configuration names: {@code logreg}, {@code mlp}, {@code lenet5} (the seed's MNIST {@code cnn}) and
 * the CIFAR ResNets {@code resnet8 … resnet110}.
 *
 * <p>The ResNets are He et al.'s CIFAR networks (6n + 2 layers: a 3×3 conv of 16 channels, three stages of n basic
 * blocks with 16, 32 and 64 channels, the last two starting with stride 2, global average pooling and a linear
 * layer), with the option-A shortcut (subsampling and zero-padded channels, no parameters) as in the seed's
 * {@code models/cifar10.py}, and Kaiming-normal convs and linear weights. {@code lenet5} is the seed's MNIST
 * {@code Convnet}: conv 5×5 to 64, max-pool 2, ReLU, conv 5×5 to 128, channel dropout 0.5, max-pool 2, ReLU,
 * linear to 1000, ReLU, dropout 0.5, linear to the classes, with PyTorch's default initialisation.
 */
public final class Models {
    /** Every model name {@link #create} accepts. */
    public static final List<String> NAMES = List.of("logreg", "mlp", "lenet5", "resnet8", "resnet20", "resnet32",
            "resnet44", "resnet56", "resnet110");

    private Models() {
    }

    /**
     * The model {@code name} for images of {@code input} and {@code classes} classes on {@code backend}, with zeroed
     * parameters; {@code hidden} gives the mlp's widths and {@code dropout} whether lenet5 drops out (the seed's
     * default; its {@code nodropout} flag turns it off).
     */
    public static Model create(String name, Backend backend, Shape input, int classes, List<Integer> hidden,
                               boolean dropout) {
        switch (name) {
            case "logreg":
                return new Mlp(backend, input.size(), List.of(), classes);
            case "mlp":
                return new Mlp(backend, input.size(), hidden, classes);
            case "lenet5":
                return lenet5(backend, input, classes, dropout);
            default:
                if (name.startsWith("resnet") && NAMES.contains(name)) {
                    return resnet(backend, Integer.parseInt(name.substring("resnet".length())), input, classes);
                }
                throw new IllegalArgumentException("unknown model '" + name + "'; known: " + String.join(", ",
                        NAMES));
        }
    }

    /** The seed's MNIST {@code Convnet}, for any input at least 16×16. */
    public static Network lenet5(Backend backend, Shape input, int classes, boolean dropout) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", "lenet5");
        config.put("dropout", dropout);
        config.put("init", "pytorch_default");
        return new Network(backend, "lenet5", config, input, classes, b -> {
            b.conv("conv1", 64, 5, 1, 0, true, Init.FAN_IN_UNIFORM).maxPool(2, 2).relu();
            b.conv("conv2", 128, 5, 1, 0, true, Init.FAN_IN_UNIFORM);
            if (dropout) {
                b.dropout(0.5, true);
            }
            b.maxPool(2, 2).relu();
            b.linear("fc1", 1000, Init.FAN_IN_UNIFORM).relu();
            if (dropout) {
                b.dropout(0.5, false);
            }
            b.linear("fc2", classes, Init.FAN_IN_UNIFORM);
        });
    }

    /** The CIFAR ResNet of {@code depth} = 6n + 2 layers. */
    public static Network resnet(Backend backend, int depth, Shape input, int classes) {
        if (depth < 8 || (depth - 2) % 6 != 0) {
            throw new IllegalArgumentException("a CIFAR ResNet has 6n + 2 layers, found " + depth);
        }
        int blocks = (depth - 2) / 6;
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", "resnet" + depth);
        config.put("shortcut", "A");
        config.put("init", "kaiming_normal");
        return new Network(backend, "resnet" + depth, config, input, classes, b -> {
            b.conv("conv1", 16, 3, 1, 1, false, Init.KAIMING_NORMAL).batchNorm("bn1").relu();
            int[] planes = {16, 32, 64};
            for (int stage = 0; stage < 3; stage++) {
                for (int i = 0; i < blocks; i++) {
                    int stride = stage > 0 && i == 0 ? 2 : 1;
                    b.basicBlock("layer" + (stage + 1) + "." + i, planes[stage], stride, Init.KAIMING_NORMAL);
                }
            }
            b.meanPool().linear("linear", classes, Init.KAIMING_NORMAL);
        });
    }
}
