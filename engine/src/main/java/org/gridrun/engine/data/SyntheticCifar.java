package org.gridrun.engine.data;

import java.nio.file.Path;
import org.gridrun.engine.random.CounterRng;

/**
 * {@code synthetic-cifar}: CIFAR-10's shape (32×32 colour images, 10 classes) generated in memory, for the CPU-sized
 * grids and tests that need CIFAR-like data where CIFAR is not downloaded.
 *
 * <p>Each class has a template: per channel a sum of two plane waves of low random frequency and phase. An image is
 * its class's template moved by up to 4 pixels in each direction (wrapping), its contrast scaled by a random factor
 * in [0.5, 1.1], with another class's template mixed in at a random weight below 0.4 and Gaussian pixel noise of
 * deviation 40 (on 0–255), so that a model must learn the shapes, not single pixels. 5,000 training and 1,000 test
 * images from a fixed seed, the same on every machine; the training set is augmented (crop and flip) like CIFAR's.
 */
final class SyntheticCifar implements ImageSet {
    static final SyntheticCifar SET = new SyntheticCifar();
    static final int TRAIN_SIZE = 5000;
    static final int TEST_SIZE = 1000;

    private static final int CLASSES = 10;
    private static final long SEED = 0x5C1FA2L;
    private static final ImageShape SHAPE = new ImageShape(32, 32, 3);

    private SyntheticCifar() {
    }

    @Override
    public TrainTestData load(String dataDir, String envDir, DataOptions options) {
        float[][] templates = templates();
        Dataset train = generate("train", TRAIN_SIZE, 1, templates).withAugmentation(true);
        Dataset test = generate("test", TEST_SIZE, 2, templates);
        return new TrainTestData(train, test, describeSource(dataDir, envDir));
    }

    @Override
    public Path directory(String dataDir, String envDir) {
        return null;
    }

    @Override
    public String describeSource(String dataDir, String envDir) {
        return "synthetic CIFAR-like images generated in memory (" + TRAIN_SIZE + " train / " + TEST_SIZE
                + " test, 10 classes, training images augmented)";
    }

    /** Each class's template, channels-last values around 0 (amplitude about 70 on the 0–255 scale). */
    private static float[][] templates() {
        CounterRng rng = new CounterRng(SEED, 0);
        float[][] templates = new float[CLASSES][SHAPE.features()];
        for (int c = 0; c < CLASSES; c++) {
            for (int ch = 0; ch < 3; ch++) {
                for (int wave = 0; wave < 2; wave++) {
                    double fx = Math.floor(rng.nextDouble() * 4) - 1.5;
                    double fy = Math.floor(rng.nextDouble() * 4) - 1.5;
                    double phase = 2 * Math.PI * rng.nextDouble();
                    for (int y = 0; y < 32; y++) {
                        for (int x = 0; x < 32; x++) {
                            templates[c][(y * 32 + x) * 3 + ch] += (float) (35 * Math.sin(2 * Math.PI
                                    * (fx * x + fy * y) / 32 + phase));
                        }
                    }
                }
            }
        }
        return templates;
    }

    private static Dataset generate(String split, int size, long stream, float[][] templates) {
        CounterRng rng = new CounterRng(SEED, stream);
        byte[] pixels = new byte[size * SHAPE.features()];
        int[] labels = new int[size];
        for (int i = 0; i < size; i++) {
            int label = i % CLASSES;
            int other = (label + 1 + (int) (rng.nextDouble() * (CLASSES - 1))) % CLASSES;
            int dx = (int) (rng.nextDouble() * 9) - 4;
            int dy = (int) (rng.nextDouble() * 9) - 4;
            double contrast = 0.5 + 0.6 * rng.nextDouble();
            double mix = 0.4 * rng.nextDouble();
            labels[i] = label;
            for (int y = 0; y < 32; y++) {
                for (int x = 0; x < 32; x++) {
                    int from = (((y + dy) & 31) * 32 + ((x + dx) & 31)) * 3;
                    for (int ch = 0; ch < 3; ch++) {
                        double noise = Math.sqrt(-2 * Math.log(1 - rng.nextDouble()))
                                * Math.cos(2 * Math.PI * rng.nextDouble());
                        double v = 128 + contrast * templates[label][from + ch] + mix * templates[other][from + ch]
                                + 40 * noise;
                        pixels[i * SHAPE.features() + (y * 32 + x) * 3 + ch] = (byte) Math.max(0, Math.min(255,
                                Math.round(v)));
                    }
                }
            }
        }
        return new Dataset("synthetic-cifar " + split, pixels, labels, SHAPE, CLASSES,
                new float[] {0.5f, 0.5f, 0.5f}, new float[] {0.25f, 0.25f, 0.25f});
    }
}
