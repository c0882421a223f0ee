package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.gridrun.engine.data.DataOptions;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.data.ImageData;
import org.gridrun.engine.data.TrainTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data readers on damaged files: IDX (MNIST's four files), CIFAR-10's binary batches, and ImageFolder images
 * (PNG and JPEG). Each seeded mutation ({@link Mutations}) damages one file of a small good set; loading the set,
 * and decoding every image of an ImageFolder, ends read or in exit 2 naming the damaged file, through the command
 * line's error handler, as a trainer's failure does (one damaged IDX file also through the whole {@code train}
 * command: FAILED with the message, exit 2). Prints one summary line per reader.
 */
class DataFilesFuzzTest {
    private static final long SEED = 20_261_126L;
    private static final List<String> IDX_FILES = List.of("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
            "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz");
    private static final List<String> CIFAR_FILES = List.of("data_batch_1.bin", "data_batch_2.bin",
            "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin", "test_batch.bin");

    @TempDir
    Path tmp;

    @Test
    void damagedIdxFilesAreReadOrNamed() throws IOException {
        byte[][] good = {idx(new int[] {6, 4, 4}), idx(new int[] {6}), idx(new int[] {3, 4, 4}), idx(new int[] {3})};
        fuzz("IDX (mnist)", "mnist", IDX_FILES, good, new int[][] {{4, 8, 12}, {4}, {4, 8, 12}, {4}}, 240);
    }

    @Test
    void damagedCifarBinariesAreReadOrNamed() throws IOException {
        byte[][] good = new byte[CIFAR_FILES.size()][];
        for (int f = 0; f < good.length; f++) {
            good[f] = new byte[2 * 3073];
            for (int i = 0; i < good[f].length; i++) {
                good[f][i] = (byte) (i % 3073 == 0 ? (i / 3073 + f) % 10 : i * 7);
            }
        }
        fuzz("CIFAR-10 binary", "cifar10", CIFAR_FILES, good, new int[CIFAR_FILES.size()][0], 240);
    }

    @Test
    void damagedImageFolderImagesAreDecodedOrNamed() throws IOException {
        List<String> files = List.of("train/ant/a.png", "train/bee/b.jpg", "val/ant/c.jpg", "val/bee/d.png");
        byte[][] good = {image("png", 0), image("jpg", 1), image("jpg", 2), image("png", 3)};
        fuzz("ImageFolder images (imagenet)", "imagenet", files, good, new int[files.size()][0], 180);
    }

    @Test
    void aTrainerGivenADamagedDataFileRecordsFailedNamingItAndExitsTwo() throws IOException {
        Path dir = tmp.resolve("mnist");
        int[][] dims = {{6, 4, 4}, {6}, {3, 4, 4}, {3}};
        for (int f = 0; f < IDX_FILES.size(); f++) {
            Files.createDirectories(dir);
            Files.write(dir.resolve(IDX_FILES.get(f)), idx(dims[f]));
        }
        Path labels = dir.resolve(IDX_FILES.get(1));
        Files.write(labels, java.util.Arrays.copyOf(idx(dims[1]), 11));
        java.util.Map<String, Object> params = new java.util.LinkedHashMap<>();
        params.put("dataset", "mnist");
        params.put("data_dir", dir.toString());
        params.put("hidden", "8");
        params.put("batch_size", 2L);
        params.put("niters", 2L);
        org.gridrun.engine.run.RunDir run = org.gridrun.engine.run.RunDir.at(tmp.resolve("runs/g/r/mnist"));
        run.writeExperiment(new org.gridrun.engine.run.ExperimentRecord("g", "r", "mnist", "id-mnist", params,
                org.gridrun.engine.train.TrainerConfig.resolve(params)));
        Cli.Result r = Cli.run(tmp, "train", run.path().toString());
        String expected = labels + ", byte 11: the header declares [6] = 6 bytes of data, but the file ends after 3; "
                + "the file is cut short; download the file again (gzip-compressed or plain IDX)";
        assertEquals(2, r.exit(), r.err());
        assertEquals("grid-run: " + expected, r.err().strip());
        org.gridrun.engine.run.StatusEntry last = run.status().current().orElseThrow();
        assertEquals(org.gridrun.engine.run.RunState.FAILED + " " + expected, last.state() + " " + last.detail());
    }

    /** Writes the good set, then for each mutation of one of its files loads (and decodes) the whole set. */
    private void fuzz(String reader, String dataset, List<String> names, byte[][] good, int[][] sizeFields,
                      int count) throws IOException {
        FuzzTally tally = new FuzzTally(reader, SEED);
        Path dir = tmp.resolve(dataset);
        for (int f = 0; f < names.size(); f++) {
            Files.createDirectories(dir.resolve(names.get(f)).getParent());
            Files.write(dir.resolve(names.get(f)), good[f]);
        }
        Cli.Result control = FuzzTally.throughErrorHandler(() -> load(dataset, dir));
        assertEquals(0, control.exit(), "the good set loads: " + control.err());
        for (int f = 0; f < names.size(); f++) {
            Path file = dir.resolve(names.get(f));
            for (Mutations.Mutation m : new Mutations(SEED + f, sizeFields[f]).of(good[f], count / names.size())) {
                Files.write(file, m.bytes());
                tally.judge(m, file, () -> load(dataset, dir));
            }
            Files.write(file, good[f]);
        }
        tally.finish();
    }

    /** Loads the set as a trainer does, and decodes every image of one that decodes on demand. */
    private static Object load(String dataset, Path dir) {
        TrainTestData data = DataSets.load(dataset, dir.toString(), new DataOptions(1, false));
        for (ImageData split : List.of(data.train(), data.test())) {
            float[] x = new float[split.features()];
            float[] y = new float[1];
            for (int i = 0; split.decodesOnDemand() && i < split.size(); i++) {
                split.copyImage(i, 0, x, y);
            }
        }
        return data;
    }

    /** A plain IDX file of unsigned bytes with these dimensions; values below 10, so labels fit too. */
    private static byte[] idx(int[] dims) {
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        ByteBuffer b = ByteBuffer.allocate(4 + 4 * dims.length + n);
        b.putInt(0x0800 | dims.length);
        for (int d : dims) {
            b.putInt(d);
        }
        for (int i = 0; i < n; i++) {
            b.put((byte) (i % 10));
        }
        return b.array();
    }

    private static byte[] image(String format, int seed) throws IOException {
        BufferedImage img = new BufferedImage(12, 10, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 10; y++) {
            for (int x = 0; x < 12; x++) {
                img.setRGB(x, y, (x * 20 + seed * 50) << 16 | y * 25 << 8 | (x + y) * 10);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, format.equals("jpg") ? "jpeg" : format, out);
        return out.toByteArray();
    }
}
