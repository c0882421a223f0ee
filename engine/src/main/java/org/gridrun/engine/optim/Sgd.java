package org.gridrun.engine.optim;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.backend.TensorIo;

/**
 * Stochastic gradient descent with momentum, optional Nesterov momentum, and L2 weight decay.
 *
 * <p>Each step, with gradient {@code g}: {@code d = g + weight_decay·p}; {@code v ← momentum·v + d};
 * {@code p ← p − lr·(nesterov ? d + momentum·v : v)}. This is PyTorch's {@code torch.optim.SGD} with zero dampening
 * (the velocity starts at zero, so the first step uses {@code v = d}). The velocity is one flat tensor on the
 * backend; the update is one backend call per {@link DecaySegments segment}, the parts with and without weight
 * decay. Its saved state is the learning rate and the velocity ({@code 13 + 4·size} bytes with momentum, 9 without).
 */
public final class Sgd extends BaseOptimizer {
    private final Tensor velocity;
    private final double momentum;
    private final boolean nesterov;

    /**
     * SGD for {@code size} parameters on {@code backend}.
     *
     * <p>Fails unless {@code lr > 0}, {@code 0 ≤ momentum < 1}, {@code weightDecay ≥ 0}, and momentum is positive
     * when {@code nesterov} is set.
     */
    public Sgd(Backend backend, int size, double lr, double momentum, boolean nesterov, double weightDecay) {
        this(backend, DecaySegments.all(size), lr, momentum, nesterov, weightDecay);
    }

    /** SGD for the parameters of {@code segments}, with weight decay only on the segments marked decayed. */
    public Sgd(Backend backend, DecaySegments segments, double lr, double momentum, boolean nesterov,
               double weightDecay) {
        super(backend, segments, lr, weightDecay);
        if (!(momentum >= 0 && momentum < 1)) {
            throw new IllegalArgumentException("momentum must be in [0, 1), found " + momentum);
        }
        if (nesterov && momentum == 0) {
            throw new IllegalArgumentException("nesterov needs a positive momentum, found " + momentum);
        }
        this.momentum = momentum;
        this.nesterov = nesterov;
        this.velocity = momentum > 0 ? backend.allocate(1, segments.size()) : null;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("optimizer", "sgd");
        config.put("lr", learningRate());
        config.put("momentum", momentum);
        config.put("nesterov", nesterov);
        config.put("weight_decay", weightDecay);
        config.put("decay_all", segments.decaysAll());
        return config;
    }

    @Override
    protected void update(Tensor params, Tensor gradient, int offset, int size, float decay) {
        backend.sgdUpdate(params, gradient, velocity == null ? null : part(velocity, offset, size),
                (float) learningRate(), (float) momentum, nesterov, decay);
    }

    @Override
    public java.util.List<Tensor> stateTensors() {
        return velocity == null ? java.util.List.of() : java.util.List.of(velocity);
    }

    @Override
    public void reset() {
        if (velocity != null) {
            backend.fill(velocity, 0f);
        }
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        out.writeDouble(learningRate());
        out.writeBoolean(velocity != null);
        if (velocity != null) {
            TensorIo.write(backend, velocity, out);
        }
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        double savedLr = in.readDouble();
        boolean savedVelocity = in.readBoolean();
        if (savedVelocity != (velocity != null)) {
            throw new IllegalStateException("saved sgd state " + (savedVelocity ? "has" : "has no")
                    + " velocity; this optimizer has momentum " + momentum);
        }
        setLearningRate(savedLr);
        if (velocity != null) {
            TensorIo.read(backend, velocity, in, "sgd velocity");
        }
    }

    @Override
    public void close() {
        if (velocity != null) {
            velocity.close();
        }
    }
}
