package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdxTest {
    @TempDir
    Path dir;

    private final byte[] pixels = {0, 1, 2, 3, 4, 5, (byte) 200, 7, 8, 9, 10, (byte) 255};

    @Test
    void readsGzipAndPlainFiles() throws Exception {
        for (boolean gzip : new boolean[] {true, false}) {
            Path file = dir.resolve("images" + gzip);
            IdxFiles.write(file, 0x0803, new int[] {3, 2, 2}, pixels, gzip);
            IdxData data = Idx.read(file, 3);
            assertArrayEquals(new int[] {3, 2, 2}, data.dims());
            assertEquals(3, data.count());
            assertEquals(4, data.itemSize());
            assertArrayEquals(pixels, data.data());
            assertEquals(3, Idx.count(file));
        }
    }

    @Test
    void badMagicNumberNamesTheFileAndTheExpectation() throws Exception {
        Path file = dir.resolve("labels.gz");
        IdxFiles.write(file, 0x0803, new int[] {3, 2, 2}, pixels, true);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Idx.read(file, 1));
        assertEquals(file + ", byte 0: magic number 0x00000803, expected 0x00000801 (an IDX file of unsigned bytes "
                + "in 1 dimensions); download the file again (gzip-compressed or plain IDX)", e.getMessage());
        IdxFiles.write(file, 0x0D03, new int[] {3, 2, 2}, pixels, false);
        e = assertThrows(UncheckedIOException.class, () -> Idx.read(file, 3));
        assertEquals(file + ", byte 0: magic number 0x00000d03, expected 0x00000803 (an IDX file of unsigned bytes "
                + "in 3 dimensions); download the file again (gzip-compressed or plain IDX)", e.getMessage());
    }

    @Test
    void truncatedDataAndMissingFilesFailNamingTheFile() throws Exception {
        Path file = dir.resolve("short");
        IdxFiles.write(file, 0x0803, new int[] {4, 2, 2}, pixels, false);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Idx.read(file, 3));
        assertEquals(file + ", byte 28: the header declares [4, 2, 2] = 16 bytes of data, but the file ends after 12; "
                + "the file is cut short; download the file again (gzip-compressed or plain IDX)", e.getMessage());
        Path missing = dir.resolve("nothing.gz");
        e = assertThrows(UncheckedIOException.class, () -> Idx.read(missing, 3));
        assertEquals(missing + ": no such file", e.getMessage());
        assertInstanceOf(NoSuchFileException.class, e.getCause());
    }
}
