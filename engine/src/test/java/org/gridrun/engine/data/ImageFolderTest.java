package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An ImageFolder split of seven tiny images in three classes, viewed at 32×32 from a resize to 36. */
class ImageFolderTest {
    private static final int CROP = 32;
    private static final int FEATURES = CROP * CROP * 3;

    @TempDir
    Path dir;

    private ImageFolder open(DataOptions options) {
        return new ImageFolder("tiny train", FolderIndex.scan(dir), options, ImageDecoders.best(), CROP, 36);
    }

    @Test
    void classesAreSortedFolderNamesAndFilesSortedWithinThem() throws Exception {
        ImageTrees.writeTree(dir);
        FolderIndex index = FolderIndex.scan(dir);
        assertEquals(List.of("ant", "bee", "cat"), index.classes());
        List<String> files = new ArrayList<>();
        int[] labels = new int[index.size()];
        for (int i = 0; i < index.size(); i++) {
            files.add(dir.relativize(index.path(i)).toString());
            labels[i] = index.label(i);
        }
        assertEquals(List.of("ant/a1.jpg", "ant/a2.JPEG", "bee/b1.jpeg", "cat/c1.png", "cat/c2.jpg",
                "cat/sub/c3.jpg"), files);
        assertArrayEquals(new int[] {0, 0, 1, 2, 2, 2}, labels);
        assertEquals(1, index.ignored());
        assertTrue(FolderIndex.accepted("x.JpG") && FolderIndex.accepted("y.PNG"));
        assertFalse(FolderIndex.accepted("z.gif") || FolderIndex.accepted("jpeg"));
    }

    @Test
    void viewsAreCropSquaredRgbAndEveryImageDecodes() throws Exception {
        ImageTrees.writeTree(dir);
        ImageFolder data = open(DataOptions.DEFAULT);
        assertEquals(new ImageShape(CROP, CROP, 3), data.shape());
        assertEquals(6, data.size());
        assertEquals(3, data.classes());
        assertTrue(data.decodesOnDemand());
        assertEquals(ImageTransforms.DRAWS, data.augmentationDraws());
        float[] x = new float[data.size() * FEATURES];
        float[] y = new float[data.size()];
        for (int i = 0; i < data.size(); i++) {
            data.copyImage(i, i, x, y);
            data.copyAugmented(i, i, new CounterRng(1, 2, 3L * i), x, y);
            assertEquals(data.label(i), y[i]);
        }
        assertTrue(Arrays.stream(toDoubles(x)).allMatch(v -> v > -2.2 && v < 2.7), "normalised values");
        assertEquals("", data.summary());
    }

    @Test
    void aFlatColourNormalisesWithImageNetStatistics() throws Exception {
        Files.createDirectories(dir.resolve("only"));
        ImageTrees.writePng(dir.resolve("only/flat.png"), ImageTrees.flat(50, 40, 0xC86432));
        ImageFolder data = open(DataOptions.DEFAULT);
        float[] x = new float[FEATURES];
        data.copyImage(0, 0, x, new float[1]);
        float[] want = {(200 / 255f - 0.485f) / 0.229f, (100 / 255f - 0.456f) / 0.224f,
                (50 / 255f - 0.406f) / 0.225f};
        for (int j = 0; j < FEATURES; j++) {
            assertEquals(want[j % 3], x[j], 1e-6, "value " + j);
        }
        data.copyAugmented(0, 0, new CounterRng(5, 6), x, new float[1]);
        assertEquals(want[2], x[FEATURES - 1], 1e-6);
    }

    @Test
    void augmentationIsAFunctionOfTheStreamPosition() throws Exception {
        ImageTrees.writeTree(dir);
        ImageFolder data = open(DataOptions.DEFAULT);
        float[] first = augmented(data, 40);
        assertArrayEquals(first, augmented(data, 40));
        int differing = 0;
        for (int sample = 1; sample <= 5; sample++) {
            differing += Arrays.equals(first, augmented(data, 40 + sample * ImageTransforms.DRAWS)) ? 0 : 1;
        }
        assertEquals(5, differing);
        float[] eval = new float[FEATURES];
        data.copyImage(0, 0, eval, new float[1]);
        float[] again = new float[FEATURES];
        data.copyImage(0, 0, again, new float[1]);
        assertArrayEquals(eval, again);
    }

    @Test
    void aBadImageFailsNamingTheFileAndWhatToDo() throws Exception {
        ImageTrees.writeTree(dir);
        Path cut = dir.resolve("bee/b2.jpg");
        ImageTrees.truncate(dir.resolve("ant/a1.jpg"), cut);
        Files.writeString(dir.resolve("bee/b3.jpg"), "<html>not found</html>");
        ImageFolder data = open(DataOptions.DEFAULT);
        float[] x = new float[FEATURES];
        BadImageException e = assertThrows(BadImageException.class, () -> data.copyImage(3, 0, x, new float[1]));
        assertEquals(cut, e.file());
        assertTrue(e.getMessage().startsWith(cut + ": cannot decode the image (the file is cut short: "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("); remove or replace the file, or set skip_bad_images: true to skip "
                + "unreadable images"), e.getMessage());
        BadImageException html = assertThrows(BadImageException.class,
                () -> data.copyAugmented(4, 0, new CounterRng(1, 1), x, new float[1]));
        assertTrue(html.getMessage().startsWith(dir.resolve("bee/b3.jpg") + ": cannot decode the image (neither a "
                + "JPEG nor a PNG file (starts with 3c 68 74 6d))"), html.getMessage());
    }

    @Test
    void skippingReplacesABadImageByTheNextAndCountsItOnce() throws Exception {
        ImageTrees.writeTree(dir);
        ImageTrees.truncate(dir.resolve("ant/a1.jpg"), dir.resolve("bee/b2.jpg"));
        Files.write(dir.resolve("cat/sub/zz.png"), new byte[0]);
        ImageFolder data = open(new DataOptions(2, true));
        float[] x = new float[FEATURES];
        float[] y = new float[1];
        float[] next = new float[FEATURES];
        data.copyImage(3, 0, x, y);
        data.copyImage(4, 0, next, new float[1]);
        assertArrayEquals(next, x, "b2 is replaced by c1");
        assertEquals(2, y[0]);
        data.copyAugmented(3, 0, new CounterRng(1, 1), x, y);
        data.copyImage(7, 0, x, y);
        data.copyImage(0, 0, next, new float[1]);
        assertArrayEquals(next, x, "the last image wraps to the first");
        assertEquals(0, y[0]);
        assertEquals("skipped 2 unreadable images (first: " + dir.resolve("bee/b2.jpg") + ": the file is cut short: ",
                data.summary().substring(0, data.summary().indexOf("short: ") + 7));
    }

    @Test
    void emptyAndClasslessFoldersAreRefusedWithTheirNames() throws Exception {
        Exception e = assertThrows(java.io.UncheckedIOException.class, () -> FolderIndex.scan(dir));
        assertTrue(e.getMessage().startsWith(dir + " has no class folders"), e.getMessage());
        Files.createDirectories(dir.resolve("dog"));
        Files.writeString(dir.resolve("dog/readme.md"), "x");
        e = assertThrows(java.io.UncheckedIOException.class, () -> FolderIndex.scan(dir));
        assertTrue(e.getMessage().startsWith(dir + ": no images in the class folder dog; images are files ending "
                + "in .jpeg, .jpg, .png (any case)"), e.getMessage());
    }

    private static float[] augmented(ImageFolder data, long position) {
        float[] x = new float[FEATURES];
        CounterRng draws = new CounterRng(9, 1, position);
        data.copyAugmented(1, 0, draws, x, new float[1]);
        assertEquals(position + ImageTransforms.DRAWS, draws.counter());
        return x;
    }

    private static double[] toDoubles(float[] x) {
        double[] d = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            d[i] = x[i];
        }
        return d;
    }
}
