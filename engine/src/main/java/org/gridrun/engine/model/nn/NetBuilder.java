package org.gridrun.engine.model.nn;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.backend.ConvGeometry;

/**
 * Builds a network layer by layer from its input shape, placing each parameter tensor in the flat parameter
 * vector (and each running statistic in the statistics vector) in the order the layers are added.
 *
 * <p>A recipe is a function of a builder that adds layers; running it twice gives the same places, so the model
 * runs it once to know its layout and once more per workspace to make that worker's layers.
 */
public final class NetBuilder {
    private final List<Slot> parameters = new ArrayList<>();
    private final List<Slot> statistics = new ArrayList<>();
    private List<Layer> layers = new ArrayList<>();
    private int parameterCount;
    private int statisticsCount;
    private int dropouts;
    private Shape shape;

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
        Slot w = parameter(name + ".weight", filters, fanIn, new int[] {filters, kernel, kernel, shape.channels()},
                init, fanIn);
        Slot b = bias ? parameter(name + ".bias", 1, filters, new int[] {filters}, Init.FAN_IN_UNIFORM, fanIn)
                : null;
        return add(new Conv(shape, g, filters, w, b));
    }

    /** Batch normalisation of the current channels, scale 1 and shift 0 at the start. */
    public NetBuilder batchNorm(String name) {
        int c = shape.channels();
        Slot gamma = parameter(name + ".weight", 1, c, new int[] {c}, Init.ONES, 1);
        Slot beta = parameter(name + ".bias", 1, c, new int[] {c}, Init.ZEROS, 1);
        Slot mean = statistic(name + ".running_mean", c, Init.ZEROS);
        Slot var = statistic(name + ".running_var", c, Init.ONES);
        return add(new BatchNorm(shape, gamma, beta, mean, var));
    }

    /** A ReLU, in place when the layer before allows it. */
    public NetBuilder relu() {
        return add(new Relu(shape, reusable()));
    }

    /** Max pooling over {@code kernel × kernel} windows moving by {@code stride}. */
    public NetBuilder maxPool(int kernel, int stride) {
        return add(new MaxPool(shape, ConvGeometry.square(shape.height(), shape.width(), shape.channels(), kernel,
                stride, 0)));
    }

    /** Global average pooling to one value per channel. */
    public NetBuilder meanPool() {
        return add(new MeanPool(shape));
    }

    /** A fully connected layer with a bias, over the current values flattened. */
    public NetBuilder linear(String name, int outputs, Init weightInit) {
        int in = shape.size();
        Slot w = parameter(name + ".weight", outputs, in, new int[] {outputs, in}, weightInit, in);
        Slot b = parameter(name + ".bias", 1, outputs, new int[] {outputs}, Init.FAN_IN_UNIFORM, in);
        return add(new Linear(shape, outputs, w, b));
    }

    /**
     * Dropout with probability {@code p}, of whole channels when {@code perChannel}; in place, which is also right
     * after a ReLU: scaling keeps the signs its backward pass reads, and a dropped value's gradient is 0 anyway.
     */
    public NetBuilder dropout(double p, boolean perChannel) {
        if (!reusable() && !(layers.get(layers.size() - 1) instanceof Relu)) {
            throw new IllegalStateException("dropout needs a layer before it whose output it may overwrite");
        }
        return add(new Dropout(shape, p, perChannel, dropouts++));
    }

    /**
     * A basic residual block of two 3×3 convolutions with batch norms, {@code planes} channels out, the first conv
     * moving by {@code stride}; the shortcut is the identity or, when the shape changes, option A.
     */
    public NetBuilder basicBlock(String name, int planes, int stride, Init init) {
        Shape in = shape;
        List<Layer> outer = layers;
        layers = new ArrayList<>();
        conv(name + ".conv1", planes, 3, stride, 1, false, init).batchNorm(name + ".bn1").relu();
        conv(name + ".conv2", planes, 3, 1, 1, false, init).batchNorm(name + ".bn2");
        List<Layer> main = layers;
        layers = outer;
        ConvGeometry shortcut = stride == 1 && planes == in.channels() ? null
                : new ConvGeometry(in.height(), in.width(), in.channels(), 1, 1, stride, 0);
        return add(new Residual(in, main, shortcut));
    }

    private boolean reusable() {
        return layers.isEmpty() || layers.get(layers.size() - 1).outputReusable();
    }

    private NetBuilder add(Layer layer) {
        layers.add(layer);
        shape = layer.out();
        return this;
    }

    private Slot parameter(String name, int rows, int cols, int[] shape, Init init, int fanIn) {
        Slot slot = new Slot(name, parameterCount, rows, cols, shape, init, fanIn);
        parameters.add(slot);
        parameterCount = Math.addExact(parameterCount, slot.size());
        return slot;
    }

    private Slot statistic(String name, int size, Init init) {
        Slot slot = new Slot(name, statisticsCount, 1, size, new int[] {size}, init, 1);
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
}
