package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {
    @TempDir
    Path dir;

    @Test
    void shippedSubsetIsRealBalancedAndDescribed() {
        TrainTestData data = FashionMnist.subset();
        assertEquals(6000, data.train().size());
        assertEquals(2000, data.test().size());
        assertEquals(784, data.train().features());
        assertEquals("Fashion-MNIST subset shipped with gridrun (6000 train / 2000 test); apt-get install "
                + "dataset-fashion-mnist for the full set", data.source());
        for (int count : ((Dataset) data.train()).classCounts()) {
            assertTrue(count >= 540 && count <= 660, "class balance: " + count);
        }
        // Standard normalisation: a black pixel is (0 − 0.2860)/0.3530.
        float min = Float.MAX_VALUE;
        for (int j = 0; j < 784; j++) {
            min = Math.min(min, ((Dataset) data.train()).pixel(0, j));
        }
        assertEquals(-0.2860f / 0.3530f, min, 1e-6f);
    }

    @Test
    void aGivenDirectoryWinsAndIsDescribed() throws Exception {
        IdxFiles.writeSyntheticFashionMnist(dir, 30, 20, 1);
        Path other = Files.createDirectory(dir.resolve("env"));
        assertEquals(dir, FashionMnist.locate(dir.toString(), other.toString(), other));
        TrainTestData data = FashionMnist.load(FashionMnist.locate(dir.toString(), null, other));
        assertEquals(30, data.train().size());
        assertEquals("Fashion-MNIST set from " + dir + " (30 train / 20 test)", data.source());
        assertEquals(data.source(), FashionMnist.describeSource(dir.toString()), "read from the headers alone");
    }

    @Test
    void resolutionOrderIsGivenThenEnvironmentThenSystemThenSubset() throws Exception {
        Path env = Files.createDirectory(dir.resolve("env"));
        Path system = Files.createDirectory(dir.resolve("system"));
        IdxFiles.writeSyntheticFashionMnist(env, 10, 10, 2);
        assertEquals(env, FashionMnist.locate("", env.toString(), system));
        assertNull(FashionMnist.locate("", null, system), "an empty system directory means the subset");
        IdxFiles.writeSyntheticFashionMnist(system, 10, 10, 3);
        assertEquals(system, FashionMnist.locate(" ", "", system));
    }

    @Test
    void missingFilesInAGivenDirectoryAreNamedWithTheFix() throws Exception {
        IdxFiles.writeSyntheticFashionMnist(dir, 10, 10, 4);
        Files.delete(dir.resolve("t10k-images-idx3-ubyte.gz"));
        Files.delete(dir.resolve("train-labels-idx1-ubyte.gz"));
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> FashionMnist.locate(dir.toString(), null, dir));
        String m = e.getMessage();
        assertTrue(m.startsWith("data_dir " + dir + ": Fashion-MNIST files missing in " + dir
                + ": train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz"), m);
        assertTrue(m.contains("apt-get install dataset-fashion-mnist"), m);
        assertInstanceOf(NoSuchFileException.class, e.getCause());
        e = assertThrows(UncheckedIOException.class, () -> FashionMnist.locate("", dir.toString(), dir));
        assertTrue(e.getMessage().startsWith("GRIDRUN_DATA_DIR=" + dir + ": "), e.getMessage());
    }

    @Test
    void plainFilesWithoutGzSuffixAreFound() throws Exception {
        IdxFiles.writeSyntheticFashionMnist(dir, 12, 8, 5);
        for (String name : FashionMnist.FILES) {
            Files.move(dir.resolve(name), dir.resolve(name.replace(".gz", "")));
        }
        assertEquals(12, FashionMnist.load(FashionMnist.locate(dir.toString(), null, dir)).train().size());
    }
}
