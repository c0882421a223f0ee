package org.gridrun.engine.model.nn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntToLongFunction;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.LossSums;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.model.Evaluation;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.model.TensorCodec;
import org.gridrun.engine.random.CounterRng;

/**
 * A classifier made of {@link Layer}s from a recipe, ending in softmax cross-entropy.
 *
 * <p>The parameters (every layer's weights, in the order the recipe adds them) form one flat tensor shared by all
 * workers; the running statistics of the batch norms form a second one, {@link #statistics()}, which training
 * forwards update and checkpoints save. Each workspace runs the recipe again to get layers of its own, with their
 * activation buffers, viewing the same two flat tensors.
 */
public final class Network implements Model {
    /** The offset of the initialisation random streams, apart from other users of the same seed. */
    public static final long INIT_STREAM_BASE = 5L << 40;

    private final Backend backend;
    private final String name;
    private final String description;
    private final IntToLongFunction initStreams;
    private final Map<String, Object> config;
    private final Shape input;
    private final int classes;
    private final Consumer<NetBuilder> recipe;
    private final NetBuilder plan;
    private final Tensor params;
    private final Tensor statistics;
    private long seed;
    private TensorCodec activationCodec;
    private TensorCodec gradientCodec;

    /**
     * A network {@code name} for inputs of {@code input} and {@code classes} classes, its layers added by
     * {@code recipe}, whose last layer must output {@code classes} values; parameters start at zero.
     */
    public Network(Backend backend, String name, Map<String, Object> config, Shape input, int classes,
                   Consumer<NetBuilder> recipe) {
        this(backend, name, name + " " + input + "->" + classes, config, input, classes, recipe,
                slot -> INIT_STREAM_BASE + slot);
    }

    /**
     * As {@link #Network(Backend, String, Map, Shape, int, Consumer)}, described as {@code description}, parameter
     * tensor {@code i} (in recipe order) initialised from random stream {@code initStreams(i)} of the seed: how a
     * model that used other streams before it became a network keeps its initial values.
     */
    public Network(Backend backend, String name, String description, Map<String, Object> config, Shape input,
                   int classes, Consumer<NetBuilder> recipe, IntToLongFunction initStreams) {
        this.backend = backend;
        this.name = name;
        this.description = description;
        this.initStreams = initStreams;
        this.config = new LinkedHashMap<>(config);
        this.input = input;
        this.classes = classes;
        this.recipe = recipe;
        this.plan = build();
        if (!plan.shape().equals(Shape.flat(classes))) {
            throw new IllegalArgumentException(name + " outputs " + plan.shape() + " values, not " + classes);
        }
        this.params = backend.allocate(1, plan.parameterCount());
        this.statistics = backend.allocate(1, plan.statisticsCount());
    }

    NetBuilder build() {
        NetBuilder builder = new NetBuilder(input);
        recipe.accept(builder);
        return builder;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public Map<String, Object> config() {
        return java.util.Collections.unmodifiableMap(config);
    }

    @Override
    public int parameterCount() {
        return params.size();
    }

    @Override
    public int inputSize() {
        return input.size();
    }

    @Override
    public int classCount() {
        return classes;
    }

    @Override
    public TensorLayout layout() {
        List<String> names = new ArrayList<>();
        List<int[]> shapes = new ArrayList<>();
        for (Slot slot : plan.parameters()) {
            names.add(slot.name());
            shapes.add(slot.shape().clone());
        }
        return TensorLayout.of(names, shapes);
    }

    @Override
    public int carriedState() {
        return plan.stateCount();
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
        this.seed = seed;
        int count = plan.parameters().size();
        fill(plan.parameters(), params, seed, initStreams::applyAsLong);
        fill(plan.statistics(), statistics, seed, i -> INIT_STREAM_BASE + count + i);
    }

    private void fill(List<Slot> slots, Tensor flat, long seed, IntToLongFunction streams) {
        float[] host = new float[flat.size()];
        for (int i = 0; i < slots.size(); i++) {
            Slot slot = slots.get(i);
            slot.init().fill(host, slot.offset(), slot.size(), slot.fanIn(), slot.fanOut(),
                    new CounterRng(seed, streams.applyAsLong(i)));
        }
        backend.upload(host, 0, flat);
    }

    @Override
    public Workspace newWorkspace(int batchSize) {
        return new NetWorkspace(batchSize);
    }

    @Override
    public double forward(Workspace ws, Tensor x, Tensor labels) {
        NetWorkspace w = own(ws);
        Tensor logits = trainingLogits(w, x);
        int rows = x.rows();
        return backend.softmaxCrossEntropy(logits, labels, w.lossGradient, 1f / rows) / rows;
    }

    @Override
    public void forward(Workspace ws, Tensor x, Tensor labels, LossSums sums, int slot) {
        NetWorkspace w = own(ws);
        Tensor logits = trainingLogits(w, x);
        backend.softmaxCrossEntropy(logits, labels, w.lossGradient, 1f / x.rows(), sums, slot);
    }

    /** The training forward pass of {@code x} up to the logits, with the loss gradient's buffer set for its rows. */
    private Tensor trainingLogits(NetWorkspace w, Tensor x) {
        w.ctx.training = true;
        Tensor logits = w.propagate(x);
        w.lossGradient = Layer.rows(w.lossBuffer, x.rows());
        w.forwarded = true;
        return logits;
    }

    @Override
    public void backward(Workspace ws, Tensor gradient) {
        NetWorkspace w = own(ws);
        if (gradient.size() != parameterCount()) {
            throw new IllegalArgumentException("gradient must hold " + parameterCount() + " values, found "
                    + gradient);
        }
        if (!w.forwarded) {
            throw new IllegalStateException("backward needs a training forward on the same workspace first");
        }
        w.ctx.gradient = gradient;
        Tensor g = w.lossGradient;
        for (int i = w.layers.size() - 1; i >= 0; i--) {
            Layer layer = w.layers.get(i);
            g = layer.backward(w.ctx, g, i > 0);
            if (g != null && gradientCodec != null && !layer.inPlace()) {
                gradientCodec.roundTrip(g);
            }
        }
        w.forwarded = false;
    }

    @Override
    public Evaluation evaluate(Workspace ws, Tensor x, Tensor labels) {
        NetWorkspace w = own(ws);
        w.ctx.training = false;
        w.forwarded = false;
        Tensor logits = w.propagate(x);
        double loss = backend.softmaxCrossEntropy(logits, labels, null, 0f);
        return new Evaluation(loss, backend.countCorrect(logits, labels), x.rows());
    }

    private NetWorkspace own(Workspace ws) {
        if (!(ws instanceof NetWorkspace w) || w.owner() != this) {
            throw new IllegalArgumentException("workspace was not made by this model");
        }
        return w;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here at layer granularity: a residual block's output and input gradient pass through the codecs, the
     * tensors inside the block do not; an in-place layer (ReLU after a batch norm, dropout) rewrites a tensor that
     * already passed, so its result is not passed again.
     */
    @Override
    public void codecActivations(TensorCodec activations, TensorCodec gradients) {
        this.activationCodec = activations;
        this.gradientCodec = gradients;
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

    /** One worker's layers, their buffers and the loss gradient. */
    private final class NetWorkspace implements Workspace {
        private final int capacity;
        private final Context ctx;
        private final List<Layer> layers;
        private final Tensor lossBuffer;
        private Tensor lossGradient;
        private boolean forwarded;

        /** Allocates every layer's buffers; where one does not fit, frees those allocated before it and rethrows. */
        NetWorkspace(int capacity) {
            this.capacity = capacity;
            this.ctx = new Context(backend, params, statistics, seed);
            this.layers = build().layers();
            try {
                for (Layer layer : layers) {
                    layer.allocate(ctx, capacity);
                }
                ctx.allocateScratch();
                this.lossBuffer = backend.allocate(capacity, classes);
            } catch (RuntimeException e) {
                layers.forEach(Layer::close);
                ctx.close();
                throw e;
            }
        }

        Network owner() {
            return Network.this;
        }

        Tensor propagate(Tensor x) {
            if (x.rows() > capacity || x.cols() != input.size()) {
                throw new IllegalArgumentException("expected at most " + capacity + " rows of " + input.size()
                        + " values, found " + x);
            }
            Tensor h = x;
            for (Layer layer : layers) {
                h = layer.forward(ctx, h);
                if (ctx.training && activationCodec != null && !layer.inPlace()) {
                    activationCodec.roundTrip(h);
                }
            }
            return h;
        }

        @Override
        public int capacity() {
            return capacity;
        }

        @Override
        public void reseed(long noise) {
            ctx.noise = noise;
        }

        @Override
        public void carry(Tensor state) {
            int width = plan.stateCount();
            if (width == 0 || state.size() % width != 0) {
                throw new IllegalArgumentException(name + " carries " + width + " values per sequence, found "
                        + state);
            }
            ctx.state = state;
            ctx.sequences = state.size() / width;
        }

        @Override
        public void close() {
            layers.forEach(Layer::close);
            ctx.close();
            lossBuffer.close();
        }
    }
}
