package org.gridrun.engine.backend;

/**
 * The scalars of one Adam step, computed the same way for every backend: {@code lr/(1 − β1^t)} and
 * {@code √(1 − β2^t)} in double precision from the step count, rounded to float once.
 *
 * @param stepSize        {@code lr/(1 − β1^t)}
 * @param beta1           the first moment's decay
 * @param beta2           the second moment's decay
 * @param eps             added to the corrected root of the second moment
 * @param correction2Sqrt {@code √(1 − β2^t)}
 * @param wd              the weight decay added to the gradient
 */
public record AdamStep(float stepSize, float beta1, float beta2, float eps, float correction2Sqrt, float wd) {
    /**
     * The step {@code t} (counted from 1) of {@link Backend#adamUpdate}, after checking its four tensors have one
     * size.
     */
    public static AdamStep of(Tensor params, Tensor grad, Tensor m, Tensor v, float lr, float beta1, float beta2,
                              float eps, float weightDecay, long t) {
        Shapes.sameSize(params, grad);
        Shapes.sameSize(params, m);
        Shapes.sameSize(params, v);
        if (t < 1) {
            throw new IllegalArgumentException("the Adam step count starts at 1, found " + t);
        }
        return new AdamStep((float) (lr / (1 - Math.pow(beta1, t))), beta1, beta2, eps,
                (float) Math.sqrt(1 - Math.pow(beta2, t)), weightDecay);
    }
}
