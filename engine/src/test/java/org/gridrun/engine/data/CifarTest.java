package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CifarTest {
    private static final double[] MEAN10 = {0.4914, 0.4822, 0.4465};
    private static final double[] STD10 = {0.2470, 0.2435, 0.2616};
    private static final double[] MEAN100 = {0.5071, 0.4865, 0.4409};
    private static final double[] STD100 = {0.2673, 0.2564, 0.2762};

    @TempDir
    Path dir;

    private static double normalised(int raw, double mean, double std) {
        return (raw / 255.0 - mean) / std;
    }

    @Test
    void cifar10LabelsComeInFileOrderAndTheTestSetIsNotAugmented() throws Exception {
        CifarFiles.writeCifar10(dir, 4);
        TrainTestData data = CifarImages.CIFAR10.load(dir.toString(), null);
        assertEquals(20, data.train().size());
        assertEquals(3, data.test().size());
        assertEquals(new ImageShape(32, 32, 3), data.train().shape());
        assertEquals(3072, data.train().features());
        assertEquals(10, data.train().classes());
        for (int f = 1; f <= 5; f++) {
            for (int i = 0; i < 4; i++) {
                assertEquals((f + i) % 10, data.train().label((f - 1) * 4 + i));
            }
        }
        assertTrue(((Dataset) data.train()).augments());
        assertFalse(((Dataset) data.test()).augments());
        assertEquals("CIFAR-10 set from " + dir + " (20 train / 3 test, training images augmented)", data.source());
        assertEquals(data.source(), CifarImages.CIFAR10.describeSource(dir.toString(), null));
    }

    @Test
    void imagesAreTransposedToChannelsLastAndNormalisedPerChannel() throws Exception {
        CifarFiles.writeCifar10(dir, 2);
        Dataset train = (Dataset) CifarImages.CIFAR10.load(dir.toString(), null).train();
        // Image 1 of data_batch_3 is dataset image 5; check every value against the file's planes.
        for (int y = 0; y < 32; y++) {
            for (int x = 0; x < 32; x++) {
                for (int c = 0; c < 3; c++) {
                    int raw = CifarFiles.value(3, 1, c, y, x);
                    assertEquals(normalised(raw, MEAN10[c], STD10[c]), train.pixel(5, (y * 32 + x) * 3 + c), 1e-5,
                            "y " + y + " x " + x + " c " + c);
                }
            }
        }
    }

    @Test
    void aPixelWithDistinctColoursLandsAtItsChannelsLastIndex() throws Exception {
        byte[] record = new byte[1 + 3072];
        int y = 7;
        int x = 19;
        record[1 + y * 32 + x] = 10;
        record[1 + 1024 + y * 32 + x] = 20;
        record[1 + 2048 + y * 32 + x] = 30;
        byte[] pixels = new byte[3072];
        CifarBinary.toChannelsLast(record, 1, pixels, 0);
        int at = (y * 32 + x) * 3;
        assertEquals(10, pixels[at]);
        assertEquals(20, pixels[at + 1]);
        assertEquals(30, pixels[at + 2]);
        assertEquals(3, countNonZero(pixels), "no other value set");
    }

    private static int countNonZero(byte[] bytes) {
        int n = 0;
        for (byte b : bytes) {
            n += b != 0 ? 1 : 0;
        }
        return n;
    }

    @Test
    void cifar100UsesTheFineLabelAndItsOwnStatistics() throws Exception {
        CifarFiles.writeCifar100(dir, 30);
        TrainTestData data = CifarImages.CIFAR100.load(dir.toString(), null);
        assertEquals(30, data.train().size());
        assertEquals(100, data.train().classes());
        for (int i = 0; i < 30; i++) {
            assertEquals((95 + i) % 100, data.train().label(i));
        }
        int raw = CifarFiles.value(0, 2, 1, 4, 9);
        assertEquals(normalised(raw, MEAN100[1], STD100[1]), ((Dataset) data.test()).pixel(2, (4 * 32 + 9) * 3 + 1), 1e-5);
    }

    @Test
    void theDirectoriesTheArchivesUnpackToAreFoundBeneathTheGivenOne() throws Exception {
        CifarFiles.writeCifar10(dir.resolve("cifar-10-batches-bin"), 1);
        CifarFiles.writeCifar100(dir.resolve("cifar100"), 2);
        assertEquals(5, CifarImages.CIFAR10.load("", dir.toString()).train().size());
        assertEquals(2, CifarImages.CIFAR100.load(dir.toString(), null).train().size());
    }

    @Test
    void missingFilesAreNamedWithEveryPlaceLookedAndWhereToDownload() throws Exception {
        CifarFiles.writeCifar10(dir, 1);
        Files.delete(dir.resolve("data_batch_4.bin"));
        Files.createDirectory(dir.resolve("cifar-10-batches-bin"));
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> CifarImages.CIFAR10.load(dir.toString(), null));
        String m = e.getMessage();
        assertTrue(m.startsWith("data_dir " + dir + ": CIFAR-10 files missing in " + dir + ": data_batch_4.bin; "
                + "also looked in " + dir.resolve("cifar10") + " (no such directory), "
                + dir.resolve("cifar-10-batches-bin") + " (none of the files), "
                + dir.resolve("cifar10/cifar-10-batches-bin") + " (no such directory); "), m);
        assertTrue(m.contains("cifar-10-binary.tar.gz"), m);
        assertTrue(m.contains("https://www.cs.toronto.edu/~kriz/cifar.html"), m);
        assertInstanceOf(NoSuchFileException.class, e.getCause());

        Path nowhere = dir.resolve("nowhere");
        e = assertThrows(UncheckedIOException.class, () -> CifarImages.CIFAR100.load(nowhere.toString(), null));
        assertTrue(e.getMessage().startsWith("data_dir " + nowhere + ": CIFAR-100 files missing in " + nowhere
                + ": train.bin, test.bin (no such directory); also looked in"), e.getMessage());

        e = assertThrows(UncheckedIOException.class, () -> CifarImages.CIFAR100.load("", null));
        assertTrue(e.getMessage().startsWith("CIFAR-100 files train.bin, test.bin not found: data_dir is empty and "
                + "GRIDRUN_DATA_DIR is not set; download cifar-100-binary.tar.gz"), e.getMessage());
    }

    @Test
    void aTruncatedFileNamesTheRecordAndItsByteOffset() throws Exception {
        CifarFiles.writeCifar10(dir, 2);
        Path test = dir.resolve("test_batch.bin");
        byte[] bytes = Files.readAllBytes(test);
        Files.write(test, Arrays.copyOf(bytes, bytes.length - 5));
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> CifarImages.CIFAR10.load(dir.toString(), null));
        assertEquals(test + ", byte 6146: truncated: record 2 has 3068 of its 3073 bytes; the file is cut short or has "
                + "bytes added; download the CIFAR binary version again", e.getMessage());
        Files.write(test, new byte[0]);
        e = assertThrows(UncheckedIOException.class, () -> CifarImages.CIFAR10.load(dir.toString(), null));
        assertEquals(test + ": empty, expected records of 3073 bytes; download the CIFAR binary version again",
                e.getMessage());
    }

    @Test
    void aLabelOutsideTheClassesNamesTheRecord() throws Exception {
        CifarFiles.writeCifar10(dir, 2);
        Path file = dir.resolve("data_batch_2.bin");
        byte[] bytes = Files.readAllBytes(file);
        bytes[3073] = 10;
        Files.write(file, bytes);
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> CifarImages.CIFAR10.load(dir.toString(), null));
        assertEquals(file + ", byte 3073: record 1: label 10 outside [0, 10); download the CIFAR binary version again",
                e.getMessage());
    }
}
