package org.gridrun.engine.optim;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;

/**
 * What SGD and Adam share: the learning rate, weight decay by {@link DecaySegments}, and one backend update per
 * segment.
 */
abstract class BaseOptimizer implements Optimizer {
    protected final Backend backend;
    protected final DecaySegments segments;
    protected final double weightDecay;
    private double lr;

    BaseOptimizer(Backend backend, DecaySegments segments, double lr, double weightDecay) {
        if (!(weightDecay >= 0)) {
            throw new IllegalArgumentException("weight_decay must not be negative, found " + weightDecay);
        }
        setLearningRate(lr);
        this.backend = backend;
        this.segments = segments;
        this.weightDecay = weightDecay;
    }

    /**
     * Updates values {@code [offset, offset + size)} of {@code params} from the same range of {@code gradient}
     * (views, or the whole tensors when one segment covers them) with weight decay {@code decay}.
     */
    protected abstract void update(Tensor params, Tensor gradient, int offset, int size, float decay);

    @Override
    public void step(Tensor params, Tensor gradient) {
        if (segments.segments().size() == 1) {
            update(params, gradient, 0, params.size(), decay(segments.segments().get(0)));
            return;
        }
        for (DecaySegments.Segment s : segments.segments()) {
            update(params.view(s.offset(), 1, s.size()), gradient.view(s.offset(), 1, s.size()), s.offset(),
                    s.size(), decay(s));
        }
    }

    /** {@code tensor} itself when it has {@code size} values, else its view {@code [offset, offset + size)}. */
    protected static Tensor part(Tensor tensor, int offset, int size) {
        return tensor.size() == size ? tensor : tensor.view(offset, 1, size);
    }

    private float decay(DecaySegments.Segment s) {
        return s.decayed() ? (float) weightDecay : 0f;
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
}
