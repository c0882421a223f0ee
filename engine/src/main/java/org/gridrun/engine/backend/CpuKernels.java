package org.gridrun.engine.backend;

/** The CPU backend's loops that are more than one line: softmax cross-entropy, accuracy, the SGD and Adam steps. */
final class CpuKernels {
    private CpuKernels() {
    }

    static double softmaxCrossEntropy(float[] x, int xo, int rows, int cols, float[] labels, int lo, float[] g,
                                      int go, float scale) {
        double total = 0;
        for (int i = 0; i < rows; i++) {
            int base = xo + i * cols;
            int label = label(labels[lo + i], cols);
            float max = Float.NEGATIVE_INFINITY;
            for (int j = 0; j < cols; j++) {
                max = Math.max(max, x[base + j]);
            }
            double sum = 0;
            for (int j = 0; j < cols; j++) {
                sum += Math.exp(x[base + j] - max);
            }
            total += Math.log(sum) - (x[base + label] - max);
            if (g != null) {
                int gb = go + i * cols;
                double inv = scale / sum;
                for (int j = 0; j < cols; j++) {
                    g[gb + j] = (float) (Math.exp(x[base + j] - max) * inv);
                }
                g[gb + label] -= scale;
            }
        }
        return total;
    }

    static int countCorrect(float[] x, int xo, int rows, int cols, float[] labels, int lo) {
        int correct = 0;
        for (int i = 0; i < rows; i++) {
            int base = xo + i * cols;
            int best = 0;
            for (int j = 1; j < cols; j++) {
                if (x[base + j] > x[base + best]) {
                    best = j;
                }
            }
            if (best == label(labels[lo + i], cols)) {
                correct++;
            }
        }
        return correct;
    }

    static void sgd(float[] p, int po, float[] g, int go, float[] v, int vo, int n, float lr, float momentum,
                    boolean nesterov, float wd) {
        if (v == null) {
            for (int i = 0; i < n; i++) {
                p[po + i] -= lr * (g[go + i] + wd * p[po + i]);
            }
            return;
        }
        int start = CpuVectors.enabled ? VectorElementwise.sgd(p, po, g, go, v, vo, n, lr, momentum, nesterov, wd) : 0;
        for (int i = start; i < n; i++) {
            float d = g[go + i] + wd * p[po + i];
            float vel = momentum * v[vo + i] + d;
            v[vo + i] = vel;
            p[po + i] -= lr * (nesterov ? d + momentum * vel : vel);
        }
    }

    static void adam(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int n, AdamStep s) {
        for (int i = 0; i < n; i++) {
            float d = g[go + i] + s.wd() * p[po + i];
            float mi = s.beta1() * m[mo + i] + (1 - s.beta1()) * d;
            float vi = s.beta2() * v[vo + i] + (1 - s.beta2()) * d * d;
            m[mo + i] = mi;
            v[vo + i] = vi;
            p[po + i] -= s.stepSize() * mi / ((float) Math.sqrt(vi) / s.correction2Sqrt() + s.eps());
        }
    }

    private static int label(float value, int classes) {
        int label = (int) value;
        if (label != value || label < 0 || label >= classes) {
            throw new IllegalArgumentException("label must be a class index in [0, " + classes + "), found "
                    + value);
        }
        return label;
    }

    /**
     * Inverted dropout of rows {@code [fromRow, toRow)} with a mask hashed from (seed, stream, row, column or
     * channel); see Backend#dropout.
     */
    static void dropout(float[] x, int xo, int fromRow, int toRow, int cols, float p, int channels, long seed,
                        long stream, float[] y, int yo) {
        float scale = 1f / (1f - p);
        long key = org.gridrun.engine.random.CounterRng.mix(seed ^ org.gridrun.engine.random.CounterRng.mix(stream));
        int groups = channels > 0 ? channels : cols;
        for (int r = fromRow; r < toRow; r++) {
            // One draw per group (a channel, or a single value), applied to every column of the group.
            for (int group = 0; group < groups; group++) {
                long index = (long) r * groups + group;
                double u = (org.gridrun.engine.random.CounterRng.mix(key + index * 0x9E3779B97F4A7C15L) >>> 11)
                        * 0x1.0p-53;
                boolean drop = u < p;
                for (int j = group; j < cols; j += groups) {
                    y[yo + r * cols + j] = drop ? 0f : x[xo + r * cols + j] * scale;
                }
            }
        }
    }
}
