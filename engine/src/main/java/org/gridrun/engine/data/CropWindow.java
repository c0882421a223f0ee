package org.gridrun.engine.data;

import org.gridrun.engine.random.CounterRng;

/**
 * The part of a decoded image that becomes a training or evaluation image, in source pixels, and whether it is
 * mirrored: torchvision's {@code RandomResizedCrop} + {@code RandomHorizontalFlip}, and {@code Resize} +
 * {@code CenterCrop}.
 *
 * <p>The random crop reads a fixed {@link #DRAWS} values of the stream for every image, used or not, so that image
 * {@code n} of a worker always starts at position {@code n · DRAWS}: attempt {@code k} of the ten reads values
 * {@code 2k} (area) and {@code 2k + 1} (log aspect), the accepted crop's top and left read values 20 and 21, and
 * the flip value 22.
 *
 * @param left   the first source column
 * @param top    the first source row
 * @param width  source columns, at least 1
 * @param height source rows, at least 1
 * @param flip   whether the output is mirrored left to right
 * @param cut    whether the window is cut out before resizing (a random crop: filter taps stay inside it) or the
 *               whole image is resized first (the centre crop: taps may reach beyond the window)
 */
record CropWindow(double left, double top, double width, double height, boolean flip, boolean cut) {
    /** The random values one random crop reads. */
    static final int DRAWS = 23;

    private static final int ATTEMPTS = 10;
    private static final double MIN_SCALE = 0.08;
    private static final double MIN_RATIO = 3.0 / 4.0;
    private static final double MAX_RATIO = 4.0 / 3.0;

    /** torchvision's random resized crop (scale 0.08–1, aspect 3/4–4/3) of a {@code width × height} image. */
    static CropWindow random(int width, int height, CounterRng rng) {
        double[] u = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            u[i] = (rng.nextLong() >>> 11) * 0x1.0p-53;
        }
        boolean flip = u[DRAWS - 1] < 0.5;
        double area = (double) width * height;
        double logMin = Math.log(MIN_RATIO);
        double logMax = Math.log(MAX_RATIO);
        for (int k = 0; k < ATTEMPTS; k++) {
            double target = area * (MIN_SCALE + (1 - MIN_SCALE) * u[2 * k]);
            double ratio = Math.exp(logMin + (logMax - logMin) * u[2 * k + 1]);
            int w = (int) Math.round(Math.sqrt(target * ratio));
            int h = (int) Math.round(Math.sqrt(target / ratio));
            if (w > 0 && h > 0 && w <= width && h <= height) {
                int top = (int) (u[2 * ATTEMPTS] * (height - h + 1));
                int left = (int) (u[2 * ATTEMPTS + 1] * (width - w + 1));
                return new CropWindow(left, top, w, h, flip, true);
            }
        }
        double in = (double) width / height;
        int w = width;
        int h = height;
        if (in < MIN_RATIO) {
            h = (int) Math.round(w / MIN_RATIO);
        } else if (in > MAX_RATIO) {
            w = (int) Math.round(h * MAX_RATIO);
        }
        return new CropWindow((width - w) / 2, (height - h) / 2, w, h, flip, true);
    }

    /**
     * The centre {@code crop × crop} of the image resized so that its short side is {@code resize}, as a window of
     * the source: torchvision's {@code Resize(resize)} then {@code CenterCrop(crop)}, offsets rounded as it does.
     */
    static CropWindow centre(int width, int height, int resize, int crop) {
        boolean wide = width >= height;
        int resizedW = wide ? (int) ((long) resize * width / height) : resize;
        int resizedH = wide ? resize : (int) ((long) resize * height / width);
        double scaleX = (double) width / resizedW;
        double scaleY = (double) height / resizedH;
        int top = (int) Math.round((resizedH - crop) / 2.0);
        int left = (int) Math.round((resizedW - crop) / 2.0);
        return new CropWindow(left * scaleX, top * scaleY, crop * scaleX, crop * scaleY, false, false);
    }
}
