package org.gridrun.engine.model.nn;

/**
 * The sizes of a Vision Transformer ({@code vit}): square patches of {@code patch} pixels, {@code width} channels
 * per token, {@code depth} blocks of {@code heads} attention heads and an MLP of {@code mlp} hidden channels.
 *
 * @param patch the patch side in pixels; the image's sides must be multiples of it
 * @param width channels per token (the embedding dimension)
 * @param depth transformer blocks
 * @param heads attention heads; width must be a multiple of them
 * @param mlp   hidden channels of each block's MLP
 */
public record VitSizes(int patch, int width, int depth, int heads, int mlp) {
    /** The CIFAR ViT: patch 4 (64 patches), width 192, depth 6, 3 heads, MLP 768. */
    public static final VitSizes CIFAR = new VitSizes(4, 192, 6, 3, 768);

    public VitSizes {
        if (patch < 1 || width < 1 || depth < 1 || heads < 1 || mlp < 1) {
            throw new IllegalArgumentException("a ViT's sizes must be positive, found patch " + patch + ", width "
                    + width + ", depth " + depth + ", heads " + heads + ", mlp " + mlp);
        }
        if (width % heads != 0) {
            throw new IllegalArgumentException("a ViT's width must be a multiple of its heads, found width " + width
                    + " and " + heads + " heads");
        }
    }
}
