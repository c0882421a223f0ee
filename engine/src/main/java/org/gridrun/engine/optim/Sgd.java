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
 * backend; the update is one backend call. Its saved state is the learning rate and the velocity
 * ({@code 13 + 4·size} bytes with momentum, 9 without).
 */
public final class Sgd implements Optimizer {
    private final Backend backend;
    private final Tensor velocity;
    private double lr;
    private final double momentum;
    private final boolean nesterov;
    private final double weightDecay;

    /**
     * SGD for {@code size} parameters on {@code backend}.
     *
     * <p>Fails unless {@code lr > 0}, {@code 0 ≤ momentum < 1}, {@code weightDecay ≥ 0}, and momentum is positive
     * when {@code nesterov} is set.
     */
    public Sgd(Backend backend, int size, double lr, double momentum, boolean nesterov, double weightDecay) {
        if (!(momentum >= 0 && momentum < 1)) {
            throw new IllegalArgumentException("momentum must be in [0, 1), found " + momentum);
        }
        if (nesterov && momentum == 0) {
            throw new IllegalArgumentException("nesterov needs a positive momentum, found " + momentum);
        }
        if (!(weightDecay >= 0)) {
            throw new IllegalArgumentException("weight_decay must not be negative, found " + weightDecay);
        }
        setLearningRate(lr);
        this.backend = backend;
        this.momentum = momentum;
        this.nesterov = nesterov;
        this.weightDecay = weightDecay;
        this.velocity = momentum > 0 ? backend.allocate(1, size) : null;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("optimizer", "sgd");
        config.put("lr", lr);
        config.put("momentum", momentum);
        config.put("nesterov", nesterov);
        config.put("weight_decay", weightDecay);
        return config;
    }

    @Override
    public void step(Tensor params, Tensor gradient) {
        backend.sgdUpdate(params, gradient, velocity, (float) lr, (float) momentum, nesterov, (float) weightDecay);
    }

    @Override
    public double learningRate() {
        return lr;
    }

    @Override
    public void setLearningRate(double lr) {
        if (!(lr > 0) || Double.isInfinite(lr)) {
            throw new IllegalArgumentException("lr must be positive, found " + lr);
        }
        this.lr = lr;
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
        out.writeDouble(lr);
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
