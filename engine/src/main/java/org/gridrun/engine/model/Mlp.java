package org.gridrun.engine.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.TensorLayout;

/**
 * A multilayer perceptron: fully connected layers with ReLU between them and softmax cross-entropy at the end.
 *
 * <p>Layer {@code l} maps a batch {@code x} (rows are examples) to {@code x·W_lᵀ + b_l}, with {@code W_l} stored
 * row-major as out × in, as PyTorch's {@code nn.Linear} stores it. The flat parameter tensor holds
 * {@code W_1, b_1, W_2, b_2, …} in that order, and gradients use the same layout. Weights start Kaiming/He-uniform in
 * {@code ±sqrt(6 / fan_in)}, each layer from its own random stream of the seed; biases start at zero.
 */
public final class Mlp implements Model {
    /** The offset of the initialisation random streams, apart from other users of the same seed. */
    public static final long INIT_STREAM_BASE = 3L << 40;

    private final Backend backend;
    private final int[] sizes;
    private final Tensor params;
    private final Tensor[] weights;
    private final Tensor[] biases;
    private final Tensor statistics;

    /** An MLP {@code inputs → hidden… → classes} with zeroed parameters on {@code backend}. */
    public Mlp(Backend backend, int inputs, List<Integer> hidden, int classes) {
        this.backend = backend;
        this.sizes = new int[hidden.size() + 2];
        sizes[0] = inputs;
        for (int i = 0; i < hidden.size(); i++) {
            sizes[i + 1] = hidden.get(i);
        }
        sizes[sizes.length - 1] = classes;
        for (int size : sizes) {
            if (size < 1) {
                throw new IllegalArgumentException("layer sizes must be positive, found " + describe());
            }
        }
        this.params = backend.allocate(1, count(sizes));
        this.weights = new Tensor[layers()];
        this.biases = new Tensor[layers()];
        split(params, weights, biases);
        this.statistics = backend.allocate(1, 0);
    }

    private static int count(int[] sizes) {
        long total = 0;
        for (int l = 1; l < sizes.length; l++) {
            total += (long) sizes[l - 1] * sizes[l] + sizes[l];
        }
        return Math.toIntExact(total);
    }

    @Override
    public TensorLayout layout() {
        List<String> names = new ArrayList<>();
        List<int[]> shapes = new ArrayList<>();
        for (int l = 0; l < layers(); l++) {
            names.add("fc" + (l + 1) + ".weight");
            shapes.add(new int[] {sizes[l + 1], sizes[l]});
            names.add("fc" + (l + 1) + ".bias");
            shapes.add(new int[] {sizes[l + 1]});
        }
        return TensorLayout.of(names, shapes);
    }

    /** Fills {@code w} and {@code b} with the per-layer views of a flat tensor in the parameter layout. */
    void split(Tensor flat, Tensor[] w, Tensor[] b) {
        int offset = 0;
        for (int l = 0; l < layers(); l++) {
            int in = sizes[l];
            int out = sizes[l + 1];
            w[l] = flat.view(offset, out, in);
            offset += in * out;
            b[l] = flat.view(offset, 1, out);
            offset += out;
        }
    }

    int layers() {
        return sizes.length - 1;
    }

    int width(int layer) {
        return sizes[layer];
    }

    Backend backend() {
        return backend;
    }

    Tensor weight(int layer) {
        return weights[layer];
    }

    Tensor bias(int layer) {
        return biases[layer];
    }

    @Override
    public String describe() {
        return "mlp " + java.util.Arrays.stream(sizes).mapToObj(Integer::toString).collect(Collectors.joining("-"));
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("model", "mlp");
        config.put("inputs", (long) sizes[0]);
        List<String> hidden = new ArrayList<>();
        for (int l = 1; l < sizes.length - 1; l++) {
            hidden.add(Integer.toString(sizes[l]));
        }
        config.put("hidden", String.join(",", hidden));
        config.put("classes", (long) sizes[sizes.length - 1]);
        config.put("init", "kaiming_uniform");
        return config;
    }

    @Override
    public int parameterCount() {
        return params.size();
    }

    @Override
    public int inputSize() {
        return sizes[0];
    }

    @Override
    public int classCount() {
        return sizes[sizes.length - 1];
    }

    @Override
    public Tensor parameters() {
        return params;
    }

    @Override
    public Tensor statistics() {
        return statistics;
    }

    @Override
    public void initialize(long seed) {
        for (int l = 0; l < layers(); l++) {
            float bound = (float) Math.sqrt(6.0 / sizes[l]);
            backend.fillUniform(weights[l], -bound, bound, seed, INIT_STREAM_BASE + l);
            backend.fill(biases[l], 0f);
        }
    }

    @Override
    public Workspace newWorkspace(int batchSize) {
        return new MlpWorkspace(this, batchSize);
    }

    @Override
    public double forward(Workspace ws, Tensor x, Tensor labels) {
        MlpWorkspace w = own(ws);
        w.begin(x, labels);
        Tensor logits = propagate(w);
        int rows = x.rows();
        return backend.softmaxCrossEntropy(logits, labels, w.delta(layers()), 1f / rows) / rows;
    }

    @Override
    public void backward(Workspace ws, Tensor gradient) {
        MlpWorkspace w = own(ws);
        if (gradient.size() != parameterCount()) {
            throw new IllegalArgumentException("gradient must hold " + parameterCount() + " values, found "
                    + gradient);
        }
        w.requireForward();
        Tensor[] gw = w.gradientWeights(gradient);
        Tensor[] gb = w.gradientBiases();
        for (int l = layers(); l >= 1; l--) {
            Tensor delta = w.delta(l);
            backend.gemm(true, false, 1f, delta, w.activation(l - 1), 0f, gw[l - 1]);
            backend.columnSums(delta, 0f, gb[l - 1]);
            if (l > 1) {
                backend.gemm(false, false, 1f, delta, weights[l - 1], 0f, w.delta(l - 1));
                backend.reluBackward(w.activation(l - 1), w.delta(l - 1));
            }
        }
        w.end();
    }

    @Override
    public Evaluation evaluate(Workspace ws, Tensor x, Tensor labels) {
        MlpWorkspace w = own(ws);
        w.begin(x, labels);
        Tensor logits = propagate(w);
        double loss = backend.softmaxCrossEntropy(logits, labels, null, 0f);
        int correct = backend.countCorrect(logits, labels);
        w.end();
        return new Evaluation(loss, correct, x.rows());
    }

    /** Runs the layers on the workspace's current input; returns the logits. */
    private Tensor propagate(MlpWorkspace w) {
        for (int l = 1; l <= layers(); l++) {
            Tensor z = w.activation(l);
            backend.gemm(false, true, 1f, w.activation(l - 1), weights[l - 1], 0f, z);
            backend.addRowVector(biases[l - 1], z);
            if (l < layers()) {
                backend.relu(z, z);
            }
        }
        return w.activation(layers());
    }

    private MlpWorkspace own(Workspace ws) {
        if (!(ws instanceof MlpWorkspace w) || !w.belongsTo(this)) {
            throw new IllegalArgumentException("workspace was not made by this model");
        }
        return w;
    }

    @Override
    public void close() {
        params.close();
        statistics.close();
    }

    @Override
    public String toString() {
        return describe();
    }
}
