package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * One step of PowerSGD for all workers at once, each worker's instance holding its own factors and residual.
 *
 * <p>Every worker starts from {@code M = gradient + residual}. The raw tensors are averaged as they are, and their
 * residual is zero: nothing of them was lost. Each compressed tensor, {@code iters_per_step} times: every worker
 * computes {@code M·Q}; the all-reduce sums them, in worker order, into each worker's {@code P}, which each worker
 * orthonormalises (the same sum, so the same {@code P} everywhere); every worker computes {@code Mᵀ·P}; the second
 * all-reduce averages them into each worker's {@code Q}; the shared {@code P·Qᵀ} is added to the output and
 * subtracted from every worker's {@code M}. What is left of each worker's {@code M} is its new residual, so for each
 * worker {@code gradient + old residual = output + new residual} on the compressed tensors. The steps before
 * {@code start_after} are a plain average of the gradients.
 *
 * <p>The alternating variant ({@link PowerSgd#alternating}) runs half of that per iteration ({@link #alternate}):
 * the kept factor of one side, orthonormalised, is multiplied by each worker's {@code M}, and only the mean of those
 * products, the other side's factor, is all-reduced and sent.
 *
 * <p>With one worker and a {@code sink}, the step also writes what that worker sends, as float32: the raw tensors,
 * then per iteration and per compressed tensor the columns of {@code P} and of {@code Q}, or of the one factor the
 * alternating variant sends (the whole gradient before {@code start_after}).
 */
final class PowerSgdRounds {
    private PowerSgdRounds() {
    }

    /** Runs the step of {@code workers} on {@code gradients[w][offset …]}, writing the average into {@code out}. */
    static void run(PowerSgd[] workers, float[][] gradients, int offset, float[] out, byte[] sink) {
        PowerSgd lead = workers[0];
        LowRankPlan plan = lead.plan();
        int n = plan.size();
        if (!lead.compressing()) {
            average(workers, gradients, offset, n, out, sink);
            for (PowerSgd w : workers) {
                w.finishStep(n, false);
            }
            return;
        }
        for (int w = 0; w < workers.length; w++) {
            workers[w].startStep(gradients[w], offset);
        }
        Arrays.fill(out, 0, n, 0f);
        int cursor = raw(workers, plan, out, sink);
        long first = lead.firstIteration();
        for (int iteration = 0; lead.alternating() && iteration < lead.iterations(); iteration++) {
            for (int t = 0; t < plan.tensors(); t++) {
                if (plan.compressed(t)) {
                    cursor = alternate(workers, plan, t, PowerSgd.left(first + iteration), iteration == 0, out,
                            sink, cursor);
                }
            }
        }
        for (int iteration = 0; !lead.alternating() && iteration < lead.iterations(); iteration++) {
            for (int t = 0; t < plan.tensors(); t++) {
                if (plan.compressed(t)) {
                    cursor = compress(workers, plan, t, out, sink, cursor);
                }
            }
        }
        for (PowerSgd w : workers) {
            w.finishStep(lead.valuesSent(first), true);
        }
    }

    /** Rebuilds, into {@code out[offset …]}, the output of the one-worker step whose sink was {@code bytes}. */
    static void decode(PowerSgd worker, byte[] bytes, boolean compressed, long first, float[] out, int offset) {
        LowRankPlan plan = worker.plan();
        int cursor = 0;
        for (int t = 0; t < plan.tensors(); t++) {
            int start = offset + plan.offset(t);
            int end = start + plan.rows(t) * plan.columns(t);
            for (int i = start; i < end; i++) {
                out[i] = compressed && plan.compressed(t) ? 0f : LittleEndian.getFloat(bytes, 4 * cursor++);
            }
        }
        if (compressed && worker.alternating()) {
            decodeAlternating(worker, bytes, cursor, first, out, offset);
        }
        for (int iteration = 0; compressed && !worker.alternating() && iteration < worker.iterations(); iteration++) {
            for (int t = 0; t < plan.tensors(); t++) {
                if (plan.compressed(t)) {
                    cursor = addProduct(worker, plan, t, bytes, cursor, out, offset);
                }
            }
        }
    }

    /** Reads one tensor's P and Q from {@code bytes} and adds {@code P·Qᵀ} to its values in {@code out}. */
    private static int addProduct(PowerSgd worker, LowRankPlan plan, int t, byte[] bytes, int cursor, float[] out,
                                  int offset) {
        int rows = plan.rows(t);
        int cols = plan.columns(t);
        int r = plan.rank(t);
        float[] p = worker.left();
        float[] q = worker.sentRight();
        cursor = read(bytes, cursor, p, rows * r);
        cursor = read(bytes, cursor, q, cols * r);
        float[] row = worker.row();
        for (int i = 0; i < rows; i++) {
            LowRank.productRow(p, 0, rows, i, q, 0, cols, r, row);
            int base = offset + plan.offset(t) + i * cols;
            for (int j = 0; j < cols; j++) {
                out[base + j] += row[j];
            }
        }
        return cursor;
    }

    /**
     * Adds the alternating variant's iterations, read from {@code bytes} at {@code cursor}: each iteration's sent
     * factor times the kept one of the other side, which is the step's first kept factor for its first iteration and
     * the orthonormalised factor sent by the iteration before for the others, as the step computed them.
     */
    private static void decodeAlternating(PowerSgd worker, byte[] bytes, int cursor, long first, float[] out,
                                          int offset) {
        LowRankPlan plan = worker.plan();
        float[] previous = new float[worker.firstKept().length];
        float[] current = new float[previous.length];
        for (int iteration = 0; iteration < worker.iterations(); iteration++) {
            boolean left = PowerSgd.left(first + iteration);
            for (int t = 0; t < plan.tensors(); t++) {
                if (!plan.compressed(t)) {
                    continue;
                }
                int rows = plan.rows(t);
                int cols = plan.columns(t);
                int r = plan.rank(t);
                int sentAt = left ? plan.pOffset(t) : plan.qOffset(t);
                int keptAt = left ? plan.qOffset(t) : plan.pOffset(t);
                int keptLength = (left ? cols : rows) * r;
                cursor = read(bytes, cursor, current, sentAt, (left ? rows : cols) * r);
                float[] kept = left ? worker.sentRight() : worker.left();
                System.arraycopy(iteration == 0 ? worker.firstKept() : previous, keptAt, kept, 0, keptLength);
                if (iteration > 0) {
                    worker.orthonormalizer().apply(kept, left ? cols : rows, r);
                }
                addProduct(left ? current : kept, left ? sentAt : 0, rows, left ? kept : current, left ? 0 : sentAt,
                        cols, r, worker.row(), out, offset + plan.offset(t));
            }
            float[] swap = previous;
            previous = current;
            current = swap;
        }
    }

    private static int read(byte[] bytes, int cursor, float[] values, int length) {
        return read(bytes, cursor, values, 0, length);
    }

    private static int read(byte[] bytes, int cursor, float[] values, int at, int length) {
        for (int i = 0; i < length; i++) {
            values[at + i] = LittleEndian.getFloat(bytes, 4 * (cursor + i));
        }
        return cursor + length;
    }

    /**
     * Half a power iteration on tensor {@code t}, the alternating variant's: with {@code left}, the kept Q is
     * orthonormalised and P = mean(M·Q) all-reduced and sent; otherwise the kept P is and Q = mean(Mᵀ·P) is. Then
     * {@code P·Qᵀ} goes to the output and out of every worker's M, as in {@link #compress}. The step's
     * {@code first} iteration also keeps the orthonormalised factor for {@link #decode}. Returns the cursor.
     */
    private static int alternate(PowerSgd[] workers, LowRankPlan plan, int t, boolean left, boolean first,
                                 float[] out, byte[] sink, int cursor) {
        int rows = plan.rows(t);
        int cols = plan.columns(t);
        int r = plan.rank(t);
        int mo = plan.offset(t);
        int qo = plan.qOffset(t);
        int po = plan.pOffset(t);
        PowerSgd lead = workers[0];
        if (left) {
            float[] in = lead.sentRight();
            System.arraycopy(lead.q(), qo, in, 0, cols * r);
            lead.orthonormalizer().apply(in, cols, r);
            for (PowerSgd w : workers) {
                System.arraycopy(in, 0, w.q(), qo, cols * r);
                if (first) {
                    System.arraycopy(in, 0, w.firstKept(), qo, cols * r);
                }
                LowRank.times(w.residual(), mo, rows, cols, w.q(), qo, r, w.sentLeft());
            }
            meanInto(workers, rows * r, true, po);
            cursor = write(sink, cursor, lead.p(), po, rows * r);
        } else {
            float[] in = lead.left();
            System.arraycopy(lead.p(), po, in, 0, rows * r);
            lead.orthonormalizer().apply(in, rows, r);
            for (PowerSgd w : workers) {
                System.arraycopy(in, 0, w.p(), po, rows * r);
                if (first) {
                    System.arraycopy(in, 0, w.firstKept(), po, rows * r);
                }
                LowRank.transposeTimes(w.residual(), mo, rows, cols, in, r, w.sentRight(), 0);
            }
            meanInto(workers, cols * r, false, qo);
            cursor = write(sink, cursor, lead.q(), qo, cols * r);
        }
        share(workers, lead.p(), po, lead.q(), qo, plan, t, out);
        return cursor;
    }

    /** Adds {@code P·Qᵀ} of tensor {@code t} to the output and takes it out of every worker's {@code M}. */
    private static void share(PowerSgd[] workers, float[] p, int po, float[] q, int qo, LowRankPlan plan, int t,
                              float[] out) {
        int rows = plan.rows(t);
        int cols = plan.columns(t);
        float[] row = workers[0].row();
        for (int i = 0; i < rows; i++) {
            LowRank.productRow(p, po, rows, i, q, qo, cols, plan.rank(t), row);
            int base = plan.offset(t) + i * cols;
            for (int j = 0; j < cols; j++) {
                out[base + j] += row[j];
            }
            for (PowerSgd w : workers) {
                float[] m = w.residual();
                for (int j = 0; j < cols; j++) {
                    m[base + j] -= row[j];
                }
            }
        }
    }

    /** The all-reduced mean of the workers' products into every worker's P (left) or Q, at {@code offset}. */
    private static void meanInto(PowerSgd[] workers, int length, boolean left, int offset) {
        for (int i = 0; i < length; i++) {
            float sum = 0f;
            for (PowerSgd w : workers) {
                sum += left ? w.sentLeft()[i] : w.sentRight()[i];
            }
            float mean = sum / workers.length;
            for (PowerSgd w : workers) {
                (left ? w.p() : w.q())[offset + i] = mean;
            }
        }
    }

    /** Adds {@code P·Qᵀ} to the {@code rows × cols} values of {@code out} at {@code base}. */
    private static void addProduct(float[] p, int po, int rows, float[] q, int qo, int cols, int r, float[] row,
                                   float[] out, int base) {
        for (int i = 0; i < rows; i++) {
            LowRank.productRow(p, po, rows, i, q, qo, cols, r, row);
            for (int j = 0; j < cols; j++) {
                out[base + i * cols + j] += row[j];
            }
        }
    }

    /** The plain average of the gradients, as before {@code start_after}. */
    private static void average(PowerSgd[] workers, float[][] gradients, int offset, int n, float[] out,
                                byte[] sink) {
        for (int i = 0; i < n; i++) {
            float sum = 0f;
            for (float[] g : gradients) {
                sum += g[offset + i];
            }
            out[i] = sum / workers.length;
        }
        for (int i = 0; sink != null && i < n; i++) {
            LittleEndian.putFloat(sink, 4 * i, gradients[0][offset + i]);
        }
    }

    /** Averages the raw tensors, clearing their residual; returns the number of values written to the sink. */
    private static int raw(PowerSgd[] workers, LowRankPlan plan, float[] out, byte[] sink) {
        int cursor = 0;
        for (int t = 0; t < plan.tensors(); t++) {
            if (plan.compressed(t)) {
                continue;
            }
            int end = plan.offset(t) + plan.rows(t) * plan.columns(t);
            for (int i = plan.offset(t); i < end; i++) {
                if (sink != null) {
                    LittleEndian.putFloat(sink, 4 * cursor++, workers[0].residual()[i]);
                }
                float sum = 0f;
                for (PowerSgd w : workers) {
                    sum += w.residual()[i];
                    w.residual()[i] = 0f;
                }
                out[i] = sum / workers.length;
            }
        }
        return cursor;
    }

    /** One power iteration on tensor {@code t}: both all-reduces, then output and residuals; returns the cursor. */
    private static int compress(PowerSgd[] workers, LowRankPlan plan, int t, float[] out, byte[] sink, int cursor) {
        int rows = plan.rows(t);
        int cols = plan.columns(t);
        int r = plan.rank(t);
        int mo = plan.offset(t);
        int qo = plan.qOffset(t);
        for (PowerSgd w : workers) {
            LowRank.times(w.residual(), mo, rows, cols, w.q(), qo, r, w.sentLeft());
        }
        float[] p = workers[0].left();
        allReduceSum(workers, rows * r, p);
        for (PowerSgd w : workers) {
            System.arraycopy(p, 0, w.left(), 0, rows * r);
            w.orthonormalizer().apply(w.left(), rows, r);
        }
        for (PowerSgd w : workers) {
            LowRank.transposeTimes(w.residual(), mo, rows, cols, w.left(), r, w.sentRight(), 0);
        }
        float[] q = workers[0].q();
        allReduceMean(workers, cols * r, q, qo);
        for (PowerSgd w : workers) {
            System.arraycopy(q, qo, w.q(), qo, cols * r);
        }
        p = workers[0].left();
        cursor = write(sink, cursor, p, 0, rows * r);
        cursor = write(sink, cursor, q, qo, cols * r);
        share(workers, p, 0, q, qo, plan, t, out);
        return cursor;
    }

    /** The first all-reduce: the sum of the workers' {@code M·Q}, in worker order. */
    private static void allReduceSum(PowerSgd[] workers, int length, float[] sum) {
        System.arraycopy(workers[0].sentLeft(), 0, sum, 0, length);
        for (int w = 1; w < workers.length; w++) {
            float[] part = workers[w].sentLeft();
            for (int i = 0; i < length; i++) {
                sum[i] += part[i];
            }
        }
    }

    /** The second all-reduce: the mean of the workers' {@code Mᵀ·P}, in worker order. */
    private static void allReduceMean(PowerSgd[] workers, int length, float[] mean, int offset) {
        for (int i = 0; i < length; i++) {
            float sum = 0f;
            for (PowerSgd w : workers) {
                sum += w.sentRight()[i];
            }
            mean[offset + i] = sum / workers.length;
        }
    }

    private static int write(byte[] sink, int cursor, float[] values, int offset, int length) {
        if (sink == null) {
            return cursor;
        }
        for (int i = 0; i < length; i++) {
            LittleEndian.putFloat(sink, 4 * (cursor + i), values[offset + i]);
        }
        return cursor + length;
    }
}
