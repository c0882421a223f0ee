package org.gridrun.engine.model.nn;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.model.Model;

/**
 * The models a configuration names: {@code logreg}, {@code mlp}, {@code lenet5} (the seed's MNIST {@code cnn}), the
 * CIFAR ResNets {@code resnet8 … resnet110}, torchvision's ImageNet ResNets {@code resnet18}, {@code resnet34} and
 * {@code resnet50}, and the wide ResNets {@code wrn-D-K}.
 *
 * <p>The CIFAR ResNets are He et al.'s (6n + 2 layers: a 3×3 conv of 16 channels, three stages of n basic
 * blocks with 16, 32 and 64 channels, the last two starting with stride 2, global average pooling and a linear
 * layer), with the option-A shortcut (subsampling and zero-padded channels, no parameters) as in the seed's
 * {@code models/cifar10.py}, and Kaiming-normal convs and linear weights. {@code lenet5} is the seed's MNIST
 * {@code Convnet}: conv 5×5 to 64, max-pool 2, ReLU, conv 5×5 to 128, channel dropout 0.5, max-pool 2, ReLU,
 * linear to 1000, ReLU, dropout 0.5, linear to the classes, with PyTorch's default initialisation.
 *
 * <p>The ImageNet ResNets are torchvision's {@code resnet18/34/50}, which the seed's {@code models/imagenet.py}
 * builds: conv 7×7 stride 2 to 64, batch norm, ReLU, max-pool 3×3 stride 2 padding 1, four stages of 64, 128, 256
 * and 512 channels (basic blocks [2, 2, 2, 2] or [3, 4, 6, 3], or bottleneck blocks [3, 4, 6, 3] of 4× the width),
 * the last three starting with stride 2, projection shortcuts where the shape changes, global average pooling and a
 * linear layer; convs Kaiming-normal by fan-out, the linear layer PyTorch's default, with torchvision's parameter
 * names. They take any image of at least 32×32.
 *
 * <p>{@code wrn-D-K} is the seed's {@code WideResNet(D, classes, K, 0.3)} (Zagoruyko and Komodakis, the seed's
 * {@code models/cifar10_wresnet.py}, which it names {@code wrnD-K}): conv 3×3 to 16, three stages of n = (D − 4)/6
 * pre-activation blocks of 16K, 32K and 64K channels (the last two starting with stride 2) with dropout 0.3, batch
 * norm, ReLU, global average pooling and a linear layer; convs Kaiming-normal by fan-out, the linear bias zero, the
 * seed's parameter names. The seed's copy skips the final linear layer (it returns the pooled 64K features); this
 * one keeps it, as the original does.
 */
public final class Models {
    /**
     * The model names a configuration may give: every fixed name {@link #create} accepts and the usual wide ResNets;
     * {@link #create} also takes any other {@code wrn-D-K} with D = 6n + 4.
     */
    public static final List<String> NAMES = List.of("logreg", "mlp", "lenet5", "resnet8", "resnet20", "resnet32",
            "resnet44", "resnet56", "resnet110", "resnet18", "resnet34", "resnet50", "wrn-16-4", "wrn-16-8",
            "wrn-22-8", "wrn-28-10", "wrn-40-2", "wrn-40-4", "vit", "lstm");

    /** The dropout probability of the wide ResNets' blocks, the seed's {@code WideResNet(..., 0.3)}. */
    public static final double WRN_DROPOUT = 0.3;

    /** The LSTM language model's embedding width and units per layer: PowerSGD's (and Zaremba et al.'s medium) 650. */
    public static final int LSTM_UNITS = 650;
    /** The LSTM language model's layers: PowerSGD's three. */
    public static final int LSTM_LAYERS = 3;
    /** The LSTM language model's dropout probability. */
    public static final double LSTM_DROPOUT = 0.4;

    private static final Pattern WRN = Pattern.compile("wrn-([1-9]\\d{0,3})-([1-9]\\d{0,2})");

    private Models() {
    }

    /**
     * The model {@code name} for images of {@code input} and {@code classes} classes on {@code backend}, with zeroed
     * parameters; {@code hidden} gives the mlp's widths and {@code dropout} whether lenet5 and the wide ResNets drop
     * out (the seed's default; its {@code nodropout} flag turns it off).
     */
    public static Model create(String name, Backend backend, Shape input, int classes, List<Integer> hidden,
                               boolean dropout) {
        return create(name, backend, input, classes, hidden, dropout, VitSizes.CIFAR);
    }

    /** As {@link #create(String, Backend, Shape, int, List, boolean)}, with {@code vit}'s sizes. */
    public static Model create(String name, Backend backend, Shape input, int classes, List<Integer> hidden,
                               boolean dropout, VitSizes vit) {
        switch (name) {
            case "vit":
                return vit(backend, input, classes, vit);
            case "logreg":
                return mlp(backend, input.size(), List.of(), classes);
            case "mlp":
                return mlp(backend, input.size(), hidden, classes);
            case "lenet5":
                return lenet5(backend, input, classes, dropout);
            case "lstm":
                return lstm(backend, classes, LSTM_UNITS, LSTM_LAYERS, dropout ? LSTM_DROPOUT : 0);
            case "resnet18", "resnet34", "resnet50":
                return imagenetResnet(backend, Integer.parseInt(name.substring("resnet".length())), input, classes);
            default:
                if (name.startsWith("resnet") && NAMES.contains(name)) {
                    return resnet(backend, Integer.parseInt(name.substring("resnet".length())), input, classes);
                }
                if (name.startsWith("wrn")) {
                    return wideResnet(backend, name, input, classes, dropout);
                }
                throw new IllegalArgumentException("unknown model '" + name + "'; known: " + String.join(", ",
                        NAMES) + " and any wrn-D-K");
        }
    }

    /**
     * The offset of the mlp's initialisation random streams, apart from other users of the same seed: those it drew
     * from before it was a {@link Network}, so runs start where they did.
     */
    public static final long MLP_INIT_STREAM_BASE = 3L << 40;

    /**
     * The multilayer perceptron {@code inputs → hidden… → classes}, with zeroed parameters: fully connected layers
     * ({@code x·Wᵀ + b}, W stored out × in as {@code nn.Linear}) with ReLU between them; the flat parameters hold
     * {@code fc1.weight, fc1.bias, fc2.weight, …}. Weights start Kaiming/He-uniform in {@code ±sqrt(6 / fan_in)},
     * layer {@code l}'s from stream {@link #MLP_INIT_STREAM_BASE}{@code + l}; biases start at zero.
     */
    public static Network mlp(Backend backend, int inputs, List<Integer> hidden, int classes) {
        int[] sizes = IntStream.concat(IntStream.concat(IntStream.of(inputs), hidden.stream().mapToInt(h -> h)),
                IntStream.of(classes)).toArray();
        String description = "mlp " + IntStream.of(sizes).mapToObj(Integer::toString).collect(Collectors.joining("-"));
        if (IntStream.of(sizes).anyMatch(size -> size < 1)) {
            throw new IllegalArgumentException("layer sizes must be positive, found " + description);
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", "mlp");
        config.put("inputs", (long) inputs);
        config.put("hidden", hidden.stream().map(Object::toString).collect(Collectors.joining(",")));
        config.put("classes", (long) classes);
        config.put("init", "kaiming_uniform");
        return new Network(backend, "mlp", description, config, Shape.flat(inputs), classes, b -> {
            for (int l = 1; l < sizes.length; l++) {
                b.linear("fc" + l, sizes[l], Init.KAIMING_UNIFORM, Init.ZEROS);
                if (l < sizes.length - 1) {
                    b.relu();
                }
            }
        }, slot -> MLP_INIT_STREAM_BASE + slot / 2);
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

    /** torchvision's ImageNet ResNet of {@code depth} 18, 34 or 50 layers. */
    public static Network imagenetResnet(Backend backend, int depth, Shape input, int classes) {
        int[] blocks = switch (depth) {
            case 18 -> new int[] {2, 2, 2, 2};
            case 34, 50 -> new int[] {3, 4, 6, 3};
            default -> throw new IllegalArgumentException("an ImageNet ResNet has 18, 34 or 50 layers, found "
                    + depth);
        };
        boolean bottleneck = depth == 50;
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", "resnet" + depth);
        config.put("block", bottleneck ? "bottleneck" : "basic");
        config.put("shortcut", "projection");
        config.put("init", "kaiming_normal_fan_out");
        Init init = Init.KAIMING_NORMAL_FAN_OUT;
        return new Network(backend, "resnet" + depth, config, input, classes, b -> {
            b.conv("conv1", 64, 7, 2, 3, false, init).batchNorm("bn1").relu().maxPool(3, 2, 1);
            for (int stage = 0; stage < 4; stage++) {
                int planes = 64 << stage;
                for (int i = 0; i < blocks[stage]; i++) {
                    String name = "layer" + (stage + 1) + "." + i;
                    int stride = stage > 0 && i == 0 ? 2 : 1;
                    if (bottleneck) {
                        b.bottleneckBlock(name, planes, stride, init);
                    } else {
                        b.projectedBasicBlock(name, planes, stride, init);
                    }
                }
            }
            b.meanPool().linear("fc", classes, Init.FAN_IN_UNIFORM);
        });
    }

    /**
     * The wide ResNet {@code name} = {@code wrn-D-K}: depth D = 6n + 4, width K; its blocks drop out with
     * {@link #WRN_DROPOUT} when {@code dropout}.
     */
    public static Network wideResnet(Backend backend, String name, Shape input, int classes, boolean dropout) {
        Matcher m = WRN.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("a wide ResNet is named wrn-DEPTH-WIDTH (the seed's wrnDEPTH-WIDTH), "
                    + "e.g. wrn-28-10, found '" + name + "'");
        }
        int depth = Integer.parseInt(m.group(1));
        int width = Integer.parseInt(m.group(2));
        if (depth < 10 || (depth - 4) % 6 != 0) {
            throw new IllegalArgumentException("a wide ResNet's depth must be 6n + 4 with n >= 1 (10, 16, 22, 28, "
                    + "...), found " + depth + " in '" + name + "'");
        }
        int blocks = (depth - 4) / 6;
        double p = dropout ? WRN_DROPOUT : 0;
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", name);
        config.put("depth", depth);
        config.put("width", width);
        config.put("dropout", p);
        config.put("init", "kaiming_normal_fan_out");
        Init init = Init.KAIMING_NORMAL_FAN_OUT;
        return new Network(backend, name, config, input, classes, b -> {
            b.conv("conv1", 16, 3, 1, 1, false, init);
            for (int stage = 0; stage < 3; stage++) {
                for (int i = 0; i < blocks; i++) {
                    int stride = stage > 0 && i == 0 ? 2 : 1;
                    b.preActBlock("block" + (stage + 1) + ".layer." + i, (16 << stage) * width, stride, p, init);
                }
            }
            b.batchNorm("bn1").relu().meanPool().linear("fc", classes, Init.FAN_IN_UNIFORM, Init.ZEROS);
        });
    }

    /**
     * The Vision Transformer of {@code sizes} (Dosovitskiy et al., as timm's {@code VisionTransformer} with a class
     * token): a patch embedding (a conv of kernel and stride {@code patch}, PyTorch's default start), a class token
     * and learned position embeddings, {@code depth} pre-norm blocks, a final layer norm of the class token and a
     * linear head; linear weights, class token and positions start as {@code trunc_normal_(std=.02)}, biases 0, the
     * head included.
     */
    public static Network vit(Backend backend, Shape input, int classes, VitSizes sizes) {
        int p = sizes.patch();
        if (input.height() % p != 0 || input.width() % p != 0) {
            throw new IllegalArgumentException("a ViT's patch must divide the image's sides, found patch " + p
                    + " for " + input);
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", "vit");
        config.put("patch", p);
        config.put("width", sizes.width());
        config.put("depth", sizes.depth());
        config.put("heads", sizes.heads());
        config.put("mlp", sizes.mlp());
        config.put("norm", "pre");
        config.put("init", "trunc_normal_0.02");
        Init init = Init.TRUNCATED_NORMAL;
        return new Network(backend, "vit", config, input, classes, b -> {
            b.conv("patch_embed.proj", sizes.width(), p, p, 0, true, Init.FAN_IN_UNIFORM);
            b.classToken("cls_token", "pos_embed", init);
            for (int i = 0; i < sizes.depth(); i++) {
                b.transformerBlock("blocks." + i, sizes.heads(), sizes.mlp(), init);
            }
            b.firstToken().layerNorm("norm").linear("head", classes, init, Init.ZEROS);
        });
    }

    /**
     * The LSTM language model PowerSGD trains on WikiText-2, PyTorch's {@code word_language_model} {@code RNNModel}
     * with tied weights: an embedding of {@code vocabulary} words to {@code units} values, {@code layers} LSTM layers
     * of {@code units} units, a decoder to the vocabulary sharing the embedding's table, and dropout of
     * {@code dropout} after the embedding and after every LSTM layer ({@code nn.LSTM}'s between layers and the
     * model's on the last). Its input rows are token ids of windows of sequences, time-major, and its classes the
     * next tokens; the hidden states are carried ({@link org.gridrun.engine.model.Model.Workspace#carry}).
     */
    public static Network lstm(Backend backend, int vocabulary, int units, int layers, double dropout) {
        if (units < 1 || layers < 1) {
            throw new IllegalArgumentException("an LSTM needs at least one layer of one unit, found " + layers
                    + " layers of " + units);
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", "lstm");
        config.put("vocabulary", vocabulary);
        config.put("units", units);
        config.put("layers", layers);
        config.put("dropout", dropout);
        config.put("tied", true);
        return new Network(backend, "lstm", config, Shape.flat(1), vocabulary, b -> {
            b.embedding("encoder", vocabulary, units);
            if (dropout > 0) {
                b.dropout(dropout, false);
            }
            for (int layer = 0; layer < layers; layer++) {
                b.lstm("rnn", layer, units);
                if (dropout > 0) {
                    b.dropout(dropout, false);
                }
            }
            b.tiedDecoder("decoder");
        });
    }
}
