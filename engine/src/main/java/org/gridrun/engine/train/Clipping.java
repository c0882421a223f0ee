package org.gridrun.engine.train;

import java.util.List;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * Gradient-norm clipping ({@link GradientClip}, torch's {@code clip_grad_norm_}) at either of the two places a
 * data-parallel script can clip, for any model.
 *
 * @param workerNorm  the largest L2 norm of each worker's gradient before it is compressed; 0: no clipping there
 * @param averageNorm the largest L2 norm of the workers' average, after the collective and before the optimizer step
 *                    (a DDP script's {@code clip_grad_norm_} after {@code backward()}, as JointSQ's authors clip);
 *                    0: no clipping there
 */
public record Clipping(double workerNorm, double averageNorm) {
    static final List<ConfigKey> KEYS = List.of(
            new ConfigKey("clip_norm", ValueType.DOUBLE, 0.0,
                    "clip each worker's gradient to this L2 norm before it is compressed; 0: no clipping"),
            new ConfigKey("clip_average_norm", ValueType.DOUBLE, 0.0,
                    "clip the workers' average gradient, after the collective, to this L2 norm before the optimizer "
                            + "step (a DDP script's clip_grad_norm_ after backward); 0: no clipping"));

    /** The values of the keys above, each at least 0. */
    static Clipping from(Settings s) {
        return new Clipping(s.nonNegativeDouble("clip_norm"), s.nonNegativeDouble("clip_average_norm"));
    }
}
