package org.gridrun.engine.model.nn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.gridrun.engine.backend.ConvGeometry;

/**
 * Builds a network layer by layer from its input shape, placing each parameter tensor in the flat parameter
 * vector (and each running statistic in the statistics vector) in the order the layers are added.
 *
 * <p>A recipe is a function of a builder that adds layers; running it twice gives the same places, so the model
 * runs it once to know its layout and once more per workspace to make that worker's layers.
 */
public final class NetBuilder {
    /** Output channels of a bottleneck block per channel of its 3×3 conv (torchvision's {@code expansion}). */
    public static final int BOTTLENECK_EXPANSION = 4;

    private final List<Slot> parameters = new ArrayList<>();
    private final List<Slot> statistics = new ArrayList<>();
    private List<Layer> layers = new ArrayList<>();
    private int parameterCount;
    private int statisticsCount;
    private int dropouts;
    private int stateCount;
    private Embedding embedding;
    private Shape shape;
    private boolean inBranch;

    NetBuilder(Shape input) {
        this.shape = input;
    }

    /** The shape of what the layers so far output. */
    public Shape shape() {
        return shape;
    }

    /** A square convolution of {@code filters} filters, with a bias when {@code bias}. */
    public NetBuilder conv(String name, int filters, int kernel, int stride, int padding, boolean bias, Init init) {
        ConvGeometry g = ConvGeometry.square(shape.height(), shape.width(), shape.channels(), kernel, stride,
                padding);
        int fanIn = g.patchSize();
        int fanOut = filters * kernel * kernel;
        Slot w = parameter(name + ".weight", filters, fanIn, new int[] {filters, kernel, kernel, shape.channels()},
                init, fanIn, fanOut);
        Slot b = bias ? parameter(name + ".bias", 1, filters, new int[] {filters}, Init.FAN_IN_UNIFORM, fanIn,
                fanOut) : null;
        return add(new Conv(shape, g, filters, w, b));
    }

    /** Batch normalisation of the current channels, scale 1 and shift 0 at the start. */
    public NetBuilder batchNorm(String name) {
        int c = shape.channels();
        Slot gamma = parameter(name + ".weight", 1, c, new int[] {c}, Init.ONES, 1, 1);
        Slot beta = parameter(name + ".bias", 1, c, new int[] {c}, Init.ZEROS, 1, 1);
        Slot mean = statistic(name + ".running_mean", c, Init.ZEROS);
        Slot var = statistic(name + ".running_var", c, Init.ONES);
        return add(new BatchNorm(shape, gamma, beta, mean, var));
    }

    /**
     * A ReLU: fused into a batch norm right before it (one pass over the values each way, the same bits), else in
     * place when the layer before allows it.
     */
    public NetBuilder relu() {
        if (!layers.isEmpty() && layers.get(layers.size() - 1) instanceof BatchNorm norm && !norm.fusedRelu()) {
            norm.fuseRelu();
            return this;
        }
        return add(new Relu(shape, reusable()));
    }

    /** Max pooling over {@code kernel × kernel} windows moving by {@code stride}, without padding. */
    public NetBuilder maxPool(int kernel, int stride) {
        return maxPool(kernel, stride, 0);
    }

    /**
     * Max pooling over {@code kernel × kernel} windows moving by {@code stride} over the image padded by
     * {@code padding} (at most half the kernel) on every side; padded positions never win.
     */
    public NetBuilder maxPool(int kernel, int stride, int padding) {
        return add(new MaxPool(shape, ConvGeometry.square(shape.height(), shape.width(), shape.channels(), kernel,
                stride, padding)));
    }

    /** Global average pooling to one value per channel. */
    public NetBuilder meanPool() {
        return add(new MeanPool(shape));
    }

    /** A fully connected layer with a bias (PyTorch's default start), over the current values flattened. */
    public NetBuilder linear(String name, int outputs, Init weightInit) {
        return linear(name, outputs, weightInit, Init.FAN_IN_UNIFORM);
    }

    /** A fully connected layer with a bias starting as {@code biasInit}, over the current values flattened. */
    public NetBuilder linear(String name, int outputs, Init weightInit, Init biasInit) {
        int in = shape.size();
        Slot w = parameter(name + ".weight", outputs, in, new int[] {outputs, in}, weightInit, in, outputs);
        Slot b = parameter(name + ".bias", 1, outputs, new int[] {outputs}, biasInit, in, outputs);
        return add(new Linear(shape, outputs, w, b));
    }

    /**
     * Dropout with probability {@code p}, of whole channels when {@code perChannel}; in place, which is also right
     * after a ReLU: scaling keeps the signs its backward pass reads, and a dropped value's gradient is 0 anyway.
     */
    public NetBuilder dropout(double p, boolean perChannel) {
        if (!reusable() && !endsInRelu()) {
            throw new IllegalStateException("dropout needs a layer before it whose output it may overwrite");
        }
        return add(new Dropout(shape, p, perChannel, dropouts++));
    }

    /**
     * A word embedding of {@code vocabulary} rows of {@code dim} values ({@code name.weight}), over inputs of one token
     * id each, starting uniform in [−0.1, 0.1] as PyTorch's word language model initialises it.
     */
    public NetBuilder embedding(String name, int vocabulary, int dim) {
        if (shape.size() != 1) {
            throw new IllegalStateException("an embedding reads one token id per row, not " + shape);
        }
        // FAN_IN_UNIFORM with a fan-in of 100 is U(±1/sqrt(100)) = U(±0.1).
        Slot table = parameter(name + ".weight", vocabulary, dim, new int[] {vocabulary, dim}, Init.FAN_IN_UNIFORM,
                100, dim);
        embedding = new Embedding(table);
        return add(embedding);
    }

    /**
     * LSTM layer {@code layer} of {@code units} units, PyTorch's {@code name.weight_ih_l<layer>} and its companions,
     * each starting {@code U(±1/sqrt(units))} as {@code nn.LSTM} does; it carries 2·units values per sequence from one
     * window to the next.
     */
    public NetBuilder lstm(String name, int layer, int units) {
        int in = shape.size();
        Slot wih = parameter(name + ".weight_ih_l" + layer, 4 * units, in, new int[] {4 * units, in},
                Init.FAN_IN_UNIFORM, units, 4 * units);
        Slot whh = parameter(name + ".weight_hh_l" + layer, 4 * units, units, new int[] {4 * units, units},
                Init.FAN_IN_UNIFORM, units, 4 * units);
        Slot bih = parameter(name + ".bias_ih_l" + layer, 1, 4 * units, new int[] {4 * units}, Init.FAN_IN_UNIFORM,
                units, 4 * units);
        Slot bhh = parameter(name + ".bias_hh_l" + layer, 1, 4 * units, new int[] {4 * units}, Init.FAN_IN_UNIFORM,
                units, 4 * units);
        Lstm lstm = new Lstm(shape, units, stateCount, wih, whh, bih, bhh);
        stateCount += 2 * units;
        return add(lstm);
    }

    /**
     * The decoder of a language model tied to the last {@link #embedding}: a linear layer to the vocabulary whose
     * weight is the embedding's table, with a bias of its own ({@code name.bias}) starting at zero.
     */
    public NetBuilder tiedDecoder(String name) {
        if (embedding == null) {
            throw new IllegalStateException("a tied decoder needs an embedding before it");
        }
        Slot table = embedding.table();
        Slot b = parameter(name + ".bias", 1, table.rows(), new int[] {table.rows()}, Init.ZEROS, 1, 1);
        embedding.tie();
        return add(new Linear(shape, table.rows(), table, b));
    }

    /**
     * A basic residual block of two 3×3 convolutions with batch norms, {@code planes} channels out, the first conv
     * moving by {@code stride}; the shortcut is the identity or, when the shape changes, option A (He et al.'s CIFAR
     * ResNets).
     */
    public NetBuilder basicBlock(String name, int planes, int stride, Init init) {
        Shape in = shape;
        boolean identity = stride == 1 && planes == in.channels();
        return residual(b -> b.basicPath(name, planes, stride, init), b -> {
            if (!identity) {
                b.add(new OptionAShortcut(in, stride, planes));
            }
        }, true);
    }

    /**
     * torchvision's {@code BasicBlock}: {@link #basicBlock}'s two convolutions, with a projection shortcut (a 1×1
     * conv moving by {@code stride} and a batch norm, {@code name.downsample.0} and {@code .1}) when the shape
     * changes.
     */
    public NetBuilder projectedBasicBlock(String name, int planes, int stride, Init init) {
        return residual(b -> b.basicPath(name, planes, stride, init), projection(name, planes, stride, init), true);
    }

    /**
     * torchvision's {@code Bottleneck} (v1.5, the stride on the 3×3 conv): 1×1 conv to {@code planes}, 3×3 conv
     * moving by {@code stride}, 1×1 conv to {@link #BOTTLENECK_EXPANSION}·{@code planes}, each with a batch norm,
     * ReLUs between; a projection shortcut when the shape changes.
     */
    public NetBuilder bottleneckBlock(String name, int planes, int stride, Init init) {
        int out = BOTTLENECK_EXPANSION * planes;
        return residual(b -> b.conv(name + ".conv1", planes, 1, 1, 0, false, init).batchNorm(name + ".bn1").relu()
                .conv(name + ".conv2", planes, 3, stride, 1, false, init).batchNorm(name + ".bn2").relu()
                .conv(name + ".conv3", out, 1, 1, 0, false, init).batchNorm(name + ".bn3"),
                projection(name, out, stride, init), true);
    }

    /**
     * A wide ResNet's pre-activation block (Zagoruyko and Komodakis): batch norm and ReLU, 3×3 conv to
     * {@code planes} moving by {@code stride}, batch norm and ReLU, dropout of {@code dropout} when positive, 3×3
     * conv, plus the shortcut, with no ReLU after the sum. The shortcut is the identity of the block's input when
     * the shape stays; else a 1×1 conv ({@code name.convShortcut}) moving by {@code stride} of the pre-activated
     * input, which then comes before the block, shared by both paths.
     */
    public NetBuilder preActBlock(String name, int planes, int stride, double dropout, Init init) {
        Consumer<NetBuilder> body = b -> {
            b.conv(name + ".conv1", planes, 3, stride, 1, false, init).batchNorm(name + ".bn2").relu();
            if (dropout > 0) {
                b.dropout(dropout, false);
            }
            b.conv(name + ".conv2", planes, 3, 1, 1, false, init);
        };
        if (stride == 1 && planes == shape.channels()) {
            return residual(b -> body.accept(b.batchNorm(name + ".bn1").relu()), b -> { }, false);
        }
        batchNorm(name + ".bn1").relu();
        return residual(body, b -> b.conv(name + ".convShortcut", planes, 1, stride, 0, false, init), false);
    }

    /** Layer normalisation of each position's channels, scale 1 and shift 0 at the start. */
    public NetBuilder layerNorm(String name) {
        int c = shape.channels();
        Slot gamma = parameter(name + ".weight", 1, c, new int[] {c}, Init.ONES, 1, 1);
        Slot beta = parameter(name + ".bias", 1, c, new int[] {c}, Init.ZEROS, 1, 1);
        return add(new LayerNorm(shape, gamma, beta));
    }

    /** The exact (erf) GELU. */
    public NetBuilder gelu() {
        return add(new Gelu(shape));
    }

    /** A linear layer with a bias applied to each position's channels: {@code outputs} channels per position. */
    public NetBuilder tokenLinear(String name, int outputs, Init weightInit, Init biasInit) {
        int in = shape.channels();
        Slot w = parameter(name + ".weight", outputs, in, new int[] {outputs, in}, weightInit, in, outputs);
        Slot b = parameter(name + ".bias", 1, outputs, new int[] {outputs}, biasInit, in, outputs);
        return add(new Linear(shape, w, b, outputs));
    }

    /** Multi-head self-attention of tokens that hold query, key and value side by side ({@link Attention}). */
    public NetBuilder attention(int heads) {
        return add(new Attention(shape, heads));
    }

    /**
     * A class token {@code tokenName} before the positions (patches) as tokens, and a position embedding
     * {@code positionName} added to every token; both learned, starting as {@code init}.
     */
    public NetBuilder classToken(String tokenName, String positionName, Init init) {
        int c = shape.channels();
        int tokens = shape.positions() + 1;
        Slot token = parameter(tokenName, 1, c, new int[] {c}, init, c, c);
        Slot positions = parameter(positionName, 1, tokens * c, new int[] {tokens, c}, init, c, c);
        return add(new ClassToken(shape, token, positions));
    }

    /** The first token's channels as flat features. */
    public NetBuilder firstToken() {
        return add(new FirstToken(shape));
    }

    /**
     * A pre-norm transformer block (timm's names): {@code x + proj(attention(qkv(norm1(x))))}, then {@code x +
     * fc2(gelu(fc1(norm2(x))))} with {@code mlp} hidden channels; linear weights start as {@code init}, biases 0.
     */
    public NetBuilder transformerBlock(String name, int heads, int mlp, Init init) {
        int width = shape.channels();
        residual(b -> b.layerNorm(name + ".norm1").tokenLinear(name + ".attn.qkv", 3 * width, init, Init.ZEROS)
                .attention(heads).tokenLinear(name + ".attn.proj", width, init, Init.ZEROS), b -> { }, false);
        return residual(b -> b.layerNorm(name + ".norm2").tokenLinear(name + ".mlp.fc1", mlp, init, Init.ZEROS)
                .gelu().tokenLinear(name + ".mlp.fc2", width, init, Init.ZEROS), b -> { }, false);
    }

    /** Two 3×3 convolutions with batch norms and a ReLU between: a basic block's main path. */
    private void basicPath(String name, int planes, int stride, Init init) {
        conv(name + ".conv1", planes, 3, stride, 1, false, init).batchNorm(name + ".bn1").relu();
        conv(name + ".conv2", planes, 3, 1, 1, false, init).batchNorm(name + ".bn2");
    }

    /**
     * torchvision's {@code downsample}, to {@code channels} channels moving by {@code stride}: nothing (the identity)
     * when the current shape stays, else a 1×1 conv and a batch norm.
     */
    private Consumer<NetBuilder> projection(String name, int channels, int stride, Init init) {
        boolean identity = stride == 1 && channels == shape.channels();
        return b -> {
            if (!identity) {
                b.conv(name + ".downsample.0", channels, 1, stride, 0, false, init).batchNorm(name + ".downsample.1");
            }
        };
    }

    /**
     * A {@link Residual} of the layers {@code main} and {@code shortcut} add, each from the current shape (no
     * layers: the identity), followed by a ReLU when {@code relu}; parameters are placed main path first.
     */
    private NetBuilder residual(Consumer<NetBuilder> main, Consumer<NetBuilder> shortcut, boolean relu) {
        Shape in = shape;
        List<Layer> mainLayers = branch(main);
        List<Layer> shortcutLayers = branch(shortcut);
        return add(new Residual(in, mainLayers, shortcutLayers, relu));
    }

    /**
     * The layers {@code body} adds from the current shape, kept apart from this builder's; the shape is restored
     * after. The branch's input is shared with the other branch, so its first layer may not overwrite it.
     */
    private List<Layer> branch(Consumer<NetBuilder> body) {
        List<Layer> outer = layers;
        Shape in = shape;
        boolean outerBranch = inBranch;
        layers = new ArrayList<>();
        inBranch = true;
        body.accept(this);
        List<Layer> added = layers;
        layers = outer;
        shape = in;
        inBranch = outerBranch;
        return added;
    }

    private boolean endsInRelu() {
        Layer last = layers.get(layers.size() - 1);
        return last instanceof Relu || last instanceof BatchNorm norm && norm.fusedRelu();
    }

    private boolean reusable() {
        return layers.isEmpty() ? !inBranch : layers.get(layers.size() - 1).outputReusable();
    }

    private NetBuilder add(Layer layer) {
        layers.add(layer);
        shape = layer.out();
        return this;
    }

    private Slot parameter(String name, int rows, int cols, int[] shape, Init init, int fanIn, int fanOut) {
        Slot slot = new Slot(name, parameterCount, rows, cols, shape, init, fanIn, fanOut);
        parameters.add(slot);
        parameterCount = Math.addExact(parameterCount, slot.size());
        return slot;
    }

    private Slot statistic(String name, int size, Init init) {
        Slot slot = new Slot(name, statisticsCount, 1, size, new int[] {size}, init, 1, 1);
        statistics.add(slot);
        statisticsCount += size;
        return slot;
    }

    List<Slot> parameters() {
        return parameters;
    }

    List<Slot> statistics() {
        return statistics;
    }

    List<Layer> layers() {
        return layers;
    }

    int parameterCount() {
        return parameterCount;
    }

    int statisticsCount() {
        return statisticsCount;
    }

    /** The values per sequence that recurrent layers carry from one window to the next. */
    int stateCount() {
        return stateCount;
    }
}
