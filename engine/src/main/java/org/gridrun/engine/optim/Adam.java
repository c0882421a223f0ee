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
 * Adam with bias correction and L2 weight decay added to the gradient: PyTorch's {@code torch.optim.Adam} (not
 * AdamW, not AMSGrad).
 *
 * <p>Step {@code t} (counted from 1), gradient {@code g}: {@code d = g + weight_decay·p};
 * {@code m ← β1·m + (1 − β1)·d}; {@code v ← β2·v + (1 − β2)·d²};
 * {@code p ← p − lr/(1 − β1^t) · m / (√v / √(1 − β2^t) + eps)}. The moments are flat tensors on the backend
 * and the update is one {@link Backend#adamUpdate} call per {@link DecaySegments segment}. Its saved state is the
 * learning rate, the step count and both moments ({@code 24 + 8·size} bytes).
 */
public final class Adam extends BaseOptimizer {
    private final Tensor m;
    private final Tensor v;
    private final double beta1;
    private final double beta2;
    private final double eps;
    private long steps;

    /**
     * Adam for the parameters of {@code segments}, with weight decay only on the segments marked decayed.
     *
     * <p>Fails unless {@code lr > 0}, {@code 0 ≤ beta1, beta2 < 1}, {@code eps > 0} and {@code weightDecay ≥ 0}.
     */
    public Adam(Backend backend, DecaySegments segments, double lr, double beta1, double beta2, double eps,
                double weightDecay) {
        super(backend, segments, lr, weightDecay);
        requireBeta("beta1", beta1);
        requireBeta("beta2", beta2);
        if (!(eps > 0) || Double.isInfinite(eps)) {
            throw new IllegalArgumentException("eps must be positive, found " + eps);
        }
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.eps = eps;
        this.m = backend.allocate(1, segments.size());
        this.v = backend.allocate(1, segments.size());
    }

    private static void requireBeta(String name, double beta) {
        if (!(beta >= 0 && beta < 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1), found " + beta);
        }
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("optimizer", "adam");
        config.put("lr", learningRate());
        config.put("beta1", beta1);
        config.put("beta2", beta2);
        config.put("eps", eps);
        config.put("weight_decay", weightDecay);
        config.put("decay_all", segments.decaysAll());
        return config;
    }

    @Override
    public void step(Tensor params, Tensor gradient) {
        steps++;
        super.step(params, gradient);
    }

    @Override
    protected void update(Tensor params, Tensor gradient, int offset, int size, float decay) {
        backend.adamUpdate(params, gradient, part(m, offset, size), part(v, offset, size), (float) learningRate(),
                (float) beta1, (float) beta2, (float) eps, decay, steps);
    }

    /** The number of steps taken, which the bias correction of the next one depends on. */
    public long steps() {
        return steps;
    }

    @Override
    public java.util.List<Tensor> stateTensors() {
        return java.util.List.of(m, v);
    }

    @Override
    public void reset() {
        backend.fill(m, 0f);
        backend.fill(v, 0f);
        steps = 0;
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        out.writeDouble(learningRate());
        out.writeLong(steps);
        TensorIo.write(backend, m, out);
        TensorIo.write(backend, v, out);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        double savedLr = in.readDouble();
        long savedSteps = in.readLong();
        if (savedSteps < 0) {
            throw new IllegalStateException("saved adam state has a negative step count " + savedSteps);
        }
        setLearningRate(savedLr);
        TensorIo.read(backend, m, in, "adam first moment");
        TensorIo.read(backend, v, in, "adam second moment");
        steps = savedSteps;
    }

    @Override
    public void close() {
        m.close();
        v.close();
    }
}
