package org.gridrun.engine.train;

/**
 * Gradient-norm clipping, {@code torch.nn.utils.clip_grad_norm_}: a gradient whose L2 norm exceeds {@code max} is
 * scaled by {@code max / (norm + 1e-6)}.
 */
public final class GradientClip {
    private GradientClip() {
    }

    /** Clips {@code g} in place to L2 norm {@code max}; returns the norm before clipping. */
    public static double clip(float[] g, double max) {
        double sum = 0;
        for (float v : g) {
            sum += (double) v * v;
        }
        double norm = Math.sqrt(sum);
        if (norm > max) {
            float scale = (float) (max / (norm + 1e-6));
            for (int i = 0; i < g.length; i++) {
                g[i] *= scale;
            }
        }
        return norm;
    }
}
