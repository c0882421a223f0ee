package org.gridrun.engine.backend.cuda;

/**
 * Element-wise operations, random fills, dropout and the optimizer steps on the GPU ({@code elementwise.cu}); sizes
 * were checked by the caller and are positive.
 *
 * <p>Each kernel takes {@code n} and {@code head} after its arrays: it does elements {@code [head, head + 4·quads)}
 * with 16-byte vector accesses and the rest one by one, so {@code head} must bring every array to a 16-byte boundary
 * ({@link #head}). The scalars the CPU backend derives in float (the fill's width, dropout's scale, Adam's
 * {@code 1 − beta}) are derived here with the same Java float arithmetic and passed in.
 */
final class CudaElementwise {
    private final Gpu gpu;

    CudaElementwise(Gpu gpu) {
        this.gpu = gpu;
    }

    /** See {@code Backend#fillUniform}: the same values as the CPU backend's {@code CounterRng} draws. */
    void fillUniform(long x, int n, float low, float high, long seed, long stream) {
        int head = head(n, x);
        launch("gr_ew_fill_uniform", n, head, KernelArgs.of().address(x).i32(n).i32(head).f32(low).f32(high - low)
                .i64(seed).i64(stream));
    }

    /** {@code x ← alpha·x}. */
    void scale(float alpha, long x, int n) {
        int head = head(n, x);
        launch("gr_ew_scale", n, head, KernelArgs.of().address(x).i32(n).i32(head).f32(alpha));
    }

    /** {@code y ← alpha·x + y}. */
    void axpy(float alpha, long x, long y, int n) {
        int head = head(n, x, y);
        launch("gr_ew_axpy", n, head, KernelArgs.of().address(x).address(y).i32(n).i32(head).f32(alpha));
    }

    /** Adds the row {@code row} (cols values) to each of the {@code rows} rows of {@code x}. */
    void addRowVector(long row, long x, int rows, int cols) {
        int n = rows * cols;
        int head = head(n, x);
        launch("gr_ew_add_row_vector", n, head, KernelArgs.of().address(row).address(x).i32(n).i32(head).i32(cols));
    }

    /** {@code y ← max(x, 0)}. */
    void relu(long x, long y, int n) {
        int head = head(n, x, y);
        launch("gr_ew_relu", n, head, KernelArgs.of().address(x).address(y).i32(n).i32(head));
    }

    /** Zeroes {@code grad} where {@code y} is not positive (NaN included), as the CPU backend does. */
    void reluBackward(long y, long grad, int n) {
        int head = head(n, y, grad);
        launch("gr_ew_relu_backward", n, head, KernelArgs.of().address(y).address(grad).i32(n).i32(head));
    }

    /** See {@code Backend#dropout}: the same mask as the CPU backend for the same (seed, stream). */
    void dropout(long x, int rows, int cols, float p, int channels, long seed, long stream, long y) {
        int n = rows * cols;
        int head = head(n, x, y);
        launch("gr_ew_dropout", n, head, KernelArgs.of().address(x).address(y).i32(n).i32(head).i32(cols)
                .i32(channels > 0 ? channels : cols).i64(seed).i64(stream).i64(dropThreshold(p)).f32(1f / (1f - p)));
    }

    /**
     * The CPU drops a value when {@code u < p} in double, {@code u} being a draw's top 53 bits times 2^-53; as
     * {@code u·2^53} is an integer and {@code p·2^53} exact, that is {@code (draw >>> 11) < ceil(p·2^53)}, which the
     * kernel tests without floating point.
     */
    static long dropThreshold(float p) {
        return (long) Math.ceil((double) p * 0x1.0p53);
    }

    /** See {@code Backend#sgdUpdate}; {@code velocity} is 0 when {@code momentum} is 0. */
    void sgd(long params, long grad, long velocity, int n, float lr, float momentum, boolean nesterov,
             float weightDecay) {
        if (momentum == 0f) {
            int head = head(n, params, grad);
            launch("gr_ew_sgd", n, head, KernelArgs.of().address(params).address(grad).i32(n).i32(head).f32(lr)
                    .f32(weightDecay));
        } else {
            int head = head(n, params, grad, velocity);
            launch("gr_ew_sgd_momentum", n, head, KernelArgs.of().address(params).address(grad).address(velocity)
                    .i32(n).i32(head).f32(lr).f32(momentum).i32(nesterov ? 1 : 0).f32(weightDecay));
        }
    }

    /** See {@code Backend#adamUpdate}, with the step's scalars computed as the CPU backend does. */
    void adam(long params, long grad, long m, long v, int n, float stepSize, float beta1, float beta2, float eps,
              float correction2Sqrt, float weightDecay) {
        int head = head(n, params, grad, m, v);
        launch("gr_ew_adam", n, head, KernelArgs.of().address(params).address(grad).address(m).address(v).i32(n)
                .i32(head).f32(stepSize).f32(beta1).f32(1 - beta1).f32(beta2).f32(1 - beta2).f32(eps)
                .f32(correction2Sqrt).f32(weightDecay));
    }

    /**
     * How many leading elements the kernel does one by one so that the rest of every array starts on a 16-byte
     * boundary: {@code 0..3} when all the addresses have the same remainder mod 16, else {@code n} (all scalar;
     * vector accesses would have to be aligned for one array and not another).
     */
    static int head(int n, long... addresses) {
        long misalignment = addresses[0] & 15;
        for (long a : addresses) {
            if ((a & 15) != misalignment || (a & 3) != 0) {
                return n;
            }
        }
        return (int) Math.min(n, ((16 - misalignment) & 15) >> 2);
    }

    /** One thread per vector group (or per scalar element, when there are more of those), grid-stride beyond. */
    private void launch(String kernel, int n, int head, KernelArgs args) {
        long quads = (n - head) >> 2;
        long items = Math.max(quads, n - 4 * quads);
        Launches.linear(gpu, kernel, items, args);
    }
}
