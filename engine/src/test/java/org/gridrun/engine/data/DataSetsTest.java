package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataSetsTest {
    @TempDir
    Path dir;

    @Test
    void namesAndUnknownNames() {
        assertEquals(List.of("fashion-mnist", "mnist", "cifar10", "cifar100", "imagenet", "synthetic-cifar",
                "wikitext2", "text", "generated-text"), DataSets.names());
        assertSame(CifarImages.CIFAR100, DataSets.set("cifar100"));
        assertEquals("unknown data set 'svhn'; known: fashion-mnist, mnist, cifar10, cifar100, imagenet, "
                + "synthetic-cifar, wikitext2, text, generated-text",
                assertThrows(IllegalArgumentException.class, () -> DataSets.load("svhn", "")).getMessage());
    }

    @Test
    void syntheticCifarIsCifarShapedBalancedAugmentedAndTheSameEveryTime() {
        TrainTestData a = DataSets.load("synthetic-cifar", "");
        TrainTestData b = DataSets.load("synthetic-cifar", "");
        assertEquals(new ImageShape(32, 32, 3), a.train().shape());
        assertEquals(10, a.train().classes());
        assertEquals(5000, a.train().size());
        assertEquals(1000, a.test().size());
        assertEquals(5000, DataSets.nominalTrainSize("synthetic-cifar"));
        assertTrue(a.train().augmentationDraws() > 0, "training images are augmented");
        assertEquals(0, a.test().augmentationDraws(), "test images are not");
        int[] perClass = new int[10];
        for (int i = 0; i < a.test().size(); i++) {
            perClass[a.test().label(i)]++;
        }
        assertEquals(List.of(100, 100, 100, 100, 100, 100, 100, 100, 100, 100),
                java.util.Arrays.stream(perClass).boxed().toList());
        float[] x = new float[2 * 3072];
        float[] y = new float[2];
        a.test().copyImage(17, 0, x, y);
        b.test().copyImage(17, 1, x, y);
        assertEquals(java.util.Arrays.toString(java.util.Arrays.copyOfRange(x, 0, 3072)),
                java.util.Arrays.toString(java.util.Arrays.copyOfRange(x, 3072, 6144)));
        assertEquals(a.test().label(17), (int) y[0]);
    }

    @Test
    void mnistReadsGzipAndPlainFilesWithItsOwnStatistics() throws Exception {
        IdxFiles.writeSyntheticFashionMnist(dir, 12, 8, 1);
        Path images = dir.resolve("train-images-idx3-ubyte.gz");
        Files.move(images, dir.resolve("train-images-idx3-ubyte"));
        TrainTestData data = DataSets.set("mnist").load(dir.toString(), null);
        assertEquals(12, data.train().size());
        assertEquals(8, data.test().size());
        assertEquals(new ImageShape(28, 28, 1), data.train().shape());
        assertFalse(((Dataset) data.train()).augments());
        assertEquals("mnist train", data.train().name());
        assertEquals("MNIST set from " + dir + " (12 train / 8 test)", data.source());
        IdxData raw = Idx.read(dir.resolve("train-images-idx3-ubyte"), 3);
        int value = raw.data()[784 + 300] & 0xFF;
        assertEquals((value / 255.0 - 0.1307) / 0.3081, ((Dataset) data.train()).pixel(1, 300), 1e-5);
    }

    @Test
    void mnistIsFoundInItsNamedDirectoryBeneathGridrunDataDir() throws Exception {
        IdxFiles.writeSyntheticFashionMnist(Files.createDirectory(dir.resolve("mnist")), 10, 10, 2);
        assertEquals(dir.resolve("mnist"), DataSets.MNIST.locate("", dir.toString(), null));
        assertEquals(10, DataSets.set("mnist").load(null, dir.toString()).train().size());
    }

    @Test
    void missingMnistSaysWhereItLookedAndWhereToDownload() throws Exception {
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> DataSets.set("mnist").load("", null));
        assertEquals("MNIST files train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, "
                + "t10k-labels-idx1-ubyte.gz not found: data_dir is empty and GRIDRUN_DATA_DIR is not set; download "
                + "the four files from the MNIST database page (http://yann.lecun.com/exdb/mnist/) or a mirror of it "
                + "into a directory and set data_dir or GRIDRUN_DATA_DIR to it", e.getMessage());

        IdxFiles.writeSyntheticFashionMnist(dir, 10, 10, 3);
        Files.delete(dir.resolve("t10k-labels-idx1-ubyte.gz"));
        e = assertThrows(UncheckedIOException.class, () -> DataSets.set("mnist").load("", dir.toString()));
        String m = e.getMessage();
        assertTrue(m.startsWith("GRIDRUN_DATA_DIR=" + dir + ": MNIST files missing in " + dir
                + ": t10k-labels-idx1-ubyte.gz (also looked for them without .gz); also looked in "
                + dir.resolve("mnist") + " (no such directory); download the four files"), m);
    }

    @Test
    void fashionMnistByNameIsTheSameSet() throws Exception {
        IdxFiles.writeSyntheticFashionMnist(dir, 14, 6, 4);
        TrainTestData data = DataSets.set("fashion-mnist").load(dir.toString(), null);
        assertEquals(14, data.train().size());
        assertEquals("Fashion-MNIST set from " + dir + " (14 train / 6 test)", data.source());
    }
}
