package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * Multi-head softmax self-attention between the tokens of each example, without parameters: the input holds each
 * token's query, key and value side by side ({@code [tokens][3][heads][headSize]}, what one per-token linear layer
 * to 3·width gives, as timm's {@code qkv}), the output each token's heads concatenated ({@code [tokens][width]}),
 * ready for the output projection.
 *
 * <p>Per example and head {@code softmax(Q·Kᵀ/√headSize)·V}. Two axis swaps bring the input to
 * {@code [3][examples·heads][tokens][headSize]}, so that every (example, head) pair's Q, K and V are contiguous
 * matrices and each product is one batched gemm over all pairs; one swap merges the heads back. The attention
 * probabilities and the split Q, K, V stay for the backward pass; the swaps' intermediate and the heads' outputs
 * live in the context's scratch.
 */
final class Attention extends Layer {
    private final int tokens;
    private final int width;
    private final int heads;
    private final int headSize;
    private final float scale;
    private Tensor split;
    private Tensor probabilities;
    private Tensor probabilityGradient;
    private Tensor splitGradient;
    private int n;

    Attention(Shape in, int heads) {
        super(in, new Shape(in.height(), in.width(), in.channels() / 3));
        this.tokens = in.positions();
        this.width = in.channels() / 3;
        if (in.channels() % 3 != 0 || heads < 1 || width % heads != 0) {
            throw new IllegalArgumentException("attention needs 3·width values per token with width a multiple of "
                    + "the " + heads + " heads, found " + in.channels());
        }
        this.heads = heads;
        this.headSize = width / heads;
        this.scale = (float) (1 / Math.sqrt(headSize));
    }

    @Override
    void allocate(Context ctx, int capacity) {
        super.allocate(ctx, capacity);
        split = own(ctx, 1, capacity * in().size());
        splitGradient = own(ctx, 1, capacity * in().size());
        probabilities = own(ctx, 1, capacity * heads * tokens * tokens);
        probabilityGradient = own(ctx, 1, capacity * heads * tokens * tokens);
        ctx.reserveScratch(capacity * in().size());
    }

    /** Part {@code part} (0: Q, 1: K, 2: V) of the split tensor {@code t}: examples·heads matrices of tokens rows. */
    private Tensor part(Tensor t, int part) {
        int size = n * heads * tokens * headSize;
        return t.view(part * size, n * heads * tokens, headSize);
    }

    private Tensor scores(Tensor t) {
        return t.view(0, n * heads * tokens, tokens);
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        n = x.rows();
        int pairs = n * heads;
        Tensor swapped = ctx.scratch(1, n * in().size());
        ctx.backend.swapAxes(x, 1, n * tokens, 3, width, swapped);
        ctx.backend.swapAxes(swapped, 3 * n, tokens, heads, headSize, split.view(0, 1, n * in().size()));
        Tensor p = scores(probabilities);
        ctx.backend.gemmBatched(false, true, scale, part(split, 0), part(split, 1), 0f, p, pairs);
        ctx.backend.softmaxRows(p, p);
        Tensor o = ctx.scratch(pairs * tokens, headSize);
        ctx.backend.gemmBatched(false, false, 1f, p, part(split, 2), 0f, o, pairs);
        Tensor y = output(n);
        ctx.backend.swapAxes(o, n, heads, tokens, headSize, y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        int pairs = n * heads;
        Tensor dOut = ctx.scratch(pairs * tokens, headSize);
        ctx.backend.swapAxes(dy, n, tokens, heads, headSize, dOut);
        Tensor p = scores(probabilities);
        Tensor dp = scores(probabilityGradient);
        ctx.backend.gemmBatched(true, false, 1f, p, dOut, 0f, part(splitGradient, 2), pairs);
        ctx.backend.gemmBatched(false, true, 1f, dOut, part(split, 2), 0f, dp, pairs);
        ctx.backend.softmaxRowsBackward(p, dp, dp);
        ctx.backend.gemmBatched(false, false, scale, dp, part(split, 1), 0f, part(splitGradient, 0), pairs);
        ctx.backend.gemmBatched(true, false, scale, dp, part(split, 0), 0f, part(splitGradient, 1), pairs);
        Tensor swapped = ctx.scratch(1, n * in().size());
        ctx.backend.swapAxes(splitGradient.view(0, 1, n * in().size()), 3 * n, heads, tokens, headSize, swapped);
        Tensor dx = inputGradient(n);
        ctx.backend.swapAxes(swapped, 1, 3, n * tokens, width, dx);
        return dx;
    }
}
