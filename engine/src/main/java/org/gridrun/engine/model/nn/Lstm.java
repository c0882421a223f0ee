package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;

/**
 * One LSTM layer, PyTorch's {@code nn.LSTM} layer {@code k} (gates i, f, g, o; weights {@code weight_ih_lk},
 * {@code weight_hh_lk}, biases {@code bias_ih_lk}, {@code bias_hh_lk}), run over a window by truncated
 * back-propagation through time.
 *
 * <p>Its input is a window of T time steps of b sequences, time-major: row {@code t·b + s} is sequence s at step t,
 * b being the context's {@link Context#sequences}. The hidden and cell state it starts from are read from, and the
 * ones it ends with written to, its part of the context's carried state (b × 2·units: h then c), which the caller
 * keeps from one window to the next; the backward pass stops at the window's start (the state is detached).
 *
 * <p>Forward: one product of the whole window with {@code W_ih} and the two biases, then per step the product of the
 * previous hidden state with {@code W_hh} added and the cell ({@link Backend#lstmCell}). Backward: per step from the
 * last, the cell's backward pass and the product with {@code W_hh} that carries the gradient to the step before;
 * then one product each for the weights' gradients and the input's.
 */
final class Lstm extends Layer {
    private final int units;
    private final int stateBase;
    private final Slot weightIh;
    private final Slot weightHh;
    private final Slot biasIh;
    private final Slot biasHh;
    private Tensor gates;
    private Tensor hidden;
    private Tensor cells;
    private Tensor h0;
    private Tensor c0;
    private Tensor dh;
    private Tensor dc;
    private Tensor x;
    private int sequences;

    Lstm(Shape in, int units, int stateBase, Slot weightIh, Slot weightHh, Slot biasIh, Slot biasHh) {
        super(in, Shape.flat(units));
        this.units = units;
        this.stateBase = stateBase;
        this.weightIh = weightIh;
        this.weightHh = weightHh;
        this.biasIh = biasIh;
        this.biasHh = biasHh;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        super.allocate(ctx, capacity);
        gates = own(ctx, capacity, 4 * units);
        hidden = own(ctx, capacity, units);
        cells = own(ctx, capacity, units);
        h0 = own(ctx, capacity, units);
        c0 = own(ctx, capacity, units);
        dh = own(ctx, capacity, units);
        dc = own(ctx, capacity, units);
    }

    /** This layer's hidden (which 0) or cell (1) state in the context's carried state. */
    private Tensor state(Context ctx, int which) {
        int b = ctx.sequences;
        return ctx.state.view((stateBase + which * units) * b, b, units);
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        Backend be = ctx.backend;
        int b = ctx.sequences;
        if (ctx.state == null || b < 1 || x.rows() % b != 0) {
            throw new IllegalStateException("an LSTM needs the carried state of its sequences (Workspace.carry) and "
                    + "a window of whole time steps; found " + x.rows() + " rows for " + b + " sequences");
        }
        this.x = x;
        this.sequences = b;
        int steps = x.rows() / b;
        be.copy(state(ctx, 0), h0.rowRange(0, b));
        be.copy(state(ctx, 1), c0.rowRange(0, b));
        Tensor g = gates.rowRange(0, x.rows());
        be.gemm(false, true, 1f, x, weightIh.of(ctx.parameters), 0f, g);
        be.addRowVector(biasIh.of(ctx.parameters), g);
        be.addRowVector(biasHh.of(ctx.parameters), g);
        Tensor whh = weightHh.of(ctx.parameters);
        for (int t = 0; t < steps; t++) {
            Tensor gt = gates.rowRange(t * b, b);
            be.gemm(false, true, 1f, previous(hidden, h0, t), whh, 1f, gt);
            be.lstmCell(gt, previous(cells, c0, t), cells.rowRange(t * b, b), hidden.rowRange(t * b, b));
        }
        be.copy(hidden.rowRange((steps - 1) * b, b), state(ctx, 0));
        be.copy(cells.rowRange((steps - 1) * b, b), state(ctx, 1));
        Tensor y = output(x.rows());
        be.copy(hidden.rowRange(0, x.rows()), y);
        return y;
    }

    /** The rows of step {@code t − 1} of {@code steps}, or the window's initial state for t = 0. */
    private Tensor previous(Tensor steps, Tensor initial, int t) {
        return t == 0 ? initial.rowRange(0, sequences) : steps.rowRange((t - 1) * sequences, sequences);
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        Backend be = ctx.backend;
        int b = sequences;
        int rows = x.rows();
        int steps = rows / b;
        Tensor whh = weightHh.of(ctx.parameters);
        Tensor dcb = dc.rowRange(0, b);
        be.fill(dcb, 0f);
        for (int t = steps - 1; t >= 0; t--) {
            Tensor dht = dh.rowRange(0, b);
            be.copy(dy.rowRange(t * b, b), dht);
            if (t < steps - 1) {
                be.gemm(false, false, 1f, gates.rowRange((t + 1) * b, b), whh, 1f, dht);
            }
            Tensor gt = gates.rowRange(t * b, b);
            be.lstmCellBackward(gt, previous(cells, c0, t), cells.rowRange(t * b, b), dht, dcb, gt);
        }
        Tensor dGates = gates.rowRange(0, rows);
        be.gemm(true, false, 1f, dGates, x, 0f, weightIh.of(ctx.gradient));
        Tensor dWhh = weightHh.of(ctx.gradient);
        be.gemm(true, false, 1f, gates.rowRange(0, b), h0.rowRange(0, b), 0f, dWhh);
        if (steps > 1) {
            be.gemm(true, false, 1f, gates.rowRange(b, rows - b), hidden.rowRange(0, rows - b), 1f, dWhh);
        }
        be.columnSums(dGates, 0f, biasIh.of(ctx.gradient));
        be.copy(biasIh.of(ctx.gradient), biasHh.of(ctx.gradient));
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(rows);
        be.gemm(false, false, 1f, dGates, weightIh.of(ctx.parameters), 0f, dx);
        return dx;
    }
}
