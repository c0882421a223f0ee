package org.gridrun.engine.data;

import org.gridrun.engine.random.CounterRng;

/**
 * A rectangle of an image's pixels, and torchvision's {@code RandomResizedCrop} choice of one.
 *
 * @param left   the first column
 * @param top    the first row
 * @param width  columns
 * @param height rows
 */
record CropBox(int left, int top, int width, int height) {
    /** The smallest and largest fraction of the image's area a random crop covers. */
    static final double MIN_SCALE = 0.08;
    static final double MAX_SCALE = 1.0;
    /** The narrowest and widest aspect ratio (width / height) of a random crop. */
    static final double MIN_RATIO = 3.0 / 4.0;
    static final double MAX_RATIO = 4.0 / 3.0;
    /** How many crops are tried before falling back to the centre. */
    static final int ATTEMPTS = 10;
    /** The stream values one random crop reads: two per attempt, then the row and column offsets. */
    static final int DRAWS = 2 * ATTEMPTS + 2;

    CropBox {
        if (left < 0 || top < 0 || width < 1 || height < 1) {
            throw new IllegalArgumentException("a crop box needs a non-negative corner and a positive size, found "
                    + width + "×" + height + " at (" + left + ", " + top + ")");
        }
    }

    /** The whole of a {@code width × height} image. */
    static CropBox whole(int width, int height) {
        return new CropBox(0, 0, width, height);
    }

    /**
     * torchvision's {@code RandomResizedCrop.get_params} with scale (0.08, 1) and ratio (3/4, 4/3) for a
     * {@code width × height} image, reading exactly {@link #DRAWS} values of {@code draws} from its position
     * {@code p}: attempt {@code a} reads {@code p + 2a} (area fraction, uniform in the scale range) and
     * {@code p + 2a + 1} (log aspect ratio, uniform), the first attempt whose rounded width and height fit is placed
     * by {@code p + 20} (row) and {@code p + 21} (column), uniform over the positions that fit. When no attempt fits,
     * the crop is centred: the whole image, its ratio clamped into the range. {@code draws} is left at
     * {@code p + DRAWS} whichever attempt succeeds.
     */
    static CropBox randomResized(int width, int height, CounterRng draws) {
        long base = draws.counter();
        double area = (double) width * height;
        double minLog = Math.log(MIN_RATIO);
        double maxLog = Math.log(MAX_RATIO);
        CropBox chosen = null;
        for (int attempt = 0; attempt < ATTEMPTS && chosen == null; attempt++) {
            double target = area * (MIN_SCALE + (MAX_SCALE - MIN_SCALE) * draws.nextDouble());
            double ratio = Math.exp(minLog + (maxLog - minLog) * draws.nextDouble());
            int w = (int) Math.rint(Math.sqrt(target * ratio));
            int h = (int) Math.rint(Math.sqrt(target / ratio));
            if (w > 0 && w <= width && h > 0 && h <= height) {
                draws.seek(base + 2 * ATTEMPTS);
                int top = draws.nextInt(height - h + 1);
                chosen = new CropBox(draws.nextInt(width - w + 1), top, w, h);
            }
        }
        draws.seek(base + DRAWS);
        return chosen != null ? chosen : centred(width, height);
    }

    /** torchvision's fallback: the whole image with its aspect ratio clamped into [3/4, 4/3], centred. */
    static CropBox centred(int width, int height) {
        double ratio = (double) width / height;
        int w = width;
        int h = height;
        if (ratio < MIN_RATIO) {
            h = (int) Math.rint(w / MIN_RATIO);
        } else if (ratio > MAX_RATIO) {
            w = (int) Math.rint(h * MAX_RATIO);
        }
        return new CropBox((width - w) / 2, (height - h) / 2, w, h);
    }
}
