package org.gridrun.engine.data;

import org.gridrun.engine.random.CounterRng;

/**
 * torchvision's standard ImageNet views of a decoded image, normalised into a row of floats channels-last.
 *
 * <p>Evaluation: {@code Resize(resize)} (the short side to {@code resize}, the long side scaled and truncated, as
 * torchvision computes it) then {@code CenterCrop(crop)} (offsets {@code round((resized − crop)/2)}, rounding half
 * to even as Python does). Training: {@code RandomResizedCrop(crop)} ({@link CropBox#randomResized}) then
 * {@code RandomHorizontalFlip()}, whose draw is the one after the crop's. Both resize with {@link Resampler}
 * (Pillow's bilinear). Values are {@code (v/255 − mean[c])/std[c]} with ImageNet's statistics, as
 * {@code ToTensor()} and {@code Normalize} give them.
 *
 * <p>Measured against torchvision 0.14.1 with Pillow 9.4.0 (libjpeg-turbo 2.1.5) on five test images (JPEGs of
 * 500×375 and 333×500, a grey and a CMYK JPEG, a PNG), decoded by either of gridrun's decoders: the evaluation view
 * and the training view of a given crop box differ in none of their 150,528 values. The training views of a run
 * differ from torchvision's only in which boxes and flips are drawn (gridrun's counter-based stream, not torch's
 * generator), not in how a drawn box becomes pixels.
 *
 * <p>Safe for several threads: the resampler keeps its scratch per thread.
 */
final class ImageTransforms {
    /** ImageNet's per-channel mean and standard deviation on the [0, 1] scale (red, green, blue). */
    static final float[] MEAN = {0.485f, 0.456f, 0.406f};
    static final float[] STD = {0.229f, 0.224f, 0.225f};
    /** The stream values one training view reads: the crop's, then the flip. */
    static final int DRAWS = CropBox.DRAWS + 1;

    private final int crop;
    private final int resize;
    private final float[] table;
    private final Resampler resampler = new Resampler();

    /** Views {@code crop × crop}, the evaluation view cropped from the image resized to short side {@code resize}. */
    ImageTransforms(int crop, int resize) {
        if (crop < 1 || resize < crop) {
            throw new IllegalArgumentException("the crop size must be positive and the resize at least the crop, "
                    + "found crop " + crop + ", resize " + resize);
        }
        this.crop = crop;
        this.resize = resize;
        this.table = Dataset.table("ImageNet", 3, MEAN, STD);
    }

    /** The output's side in pixels. */
    int crop() {
        return crop;
    }

    /** Writes the evaluation view of {@code image} into {@code x[offset …]}. */
    void evaluation(RgbImage image, float[] x, int offset) {
        int[] size = resized(image.width(), image.height(), resize);
        int left = (int) Math.rint((size[0] - crop) / 2.0);
        int top = (int) Math.rint((size[1] - crop) / 2.0);
        resampler.resize(image, CropBox.whole(image.width(), image.height()), size[0], size[1], left, top, crop,
                false, table, x, offset);
    }

    /** Writes the training view of {@code image} randomised by the next {@link #DRAWS} values of {@code draws}. */
    void training(RgbImage image, CounterRng draws, float[] x, int offset) {
        CropBox box = CropBox.randomResized(image.width(), image.height(), draws);
        boolean flip = draws.nextDouble() < 0.5;
        resampler.resize(image, box, crop, crop, 0, 0, crop, flip, table, x, offset);
    }

    /**
     * The width and height torchvision's {@code Resize(shortSide)} gives a {@code width × height} image: the short
     * side becomes {@code shortSide}, the long side {@code int(shortSide · long / short)}.
     */
    static int[] resized(int width, int height, int shortSide) {
        if (width <= height) {
            return new int[] {shortSide, (int) ((double) shortSide * height / width)};
        }
        return new int[] {(int) ((double) shortSide * width / height), shortSide};
    }
}
