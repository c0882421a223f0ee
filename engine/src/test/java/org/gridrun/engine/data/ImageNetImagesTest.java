package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ImageNet by name: where its folders are looked for, what a wrong layout says, and what it loads. */
class ImageNetImagesTest {
    @TempDir
    Path dir;

    @Test
    void registeredByNameWithThePublishedTrainingSize() {
        assertSame(ImageNetImages.SET, DataSets.set("imagenet"));
        assertEquals(1_281_167, DataSets.nominalTrainSize("imagenet"));
    }

    @Test
    void loadsTrainAndValFromBeneathTheDataDirectory() throws Exception {
        Path root = dir.resolve("ILSVRC2012");
        ImageTrees.writeTree(root.resolve("train"));
        ImageTrees.writeTree(root.resolve("val"));
        Files.delete(root.resolve("val/ant/a1.jpg"));
        TrainTestData data = DataSets.set("imagenet").load(null, dir.toString(), new DataOptions(2, false));
        assertEquals("imagenet train", data.train().name());
        assertEquals("imagenet val", data.test().name());
        assertEquals(6, data.train().size());
        assertEquals(5, data.test().size());
        assertEquals(new ImageShape(224, 224, 3), data.train().shape());
        assertEquals(3, data.test().classes());
        assertEquals(0, data.test().label(0));
        assertEquals(1, data.test().label(1));
        assertEquals("ImageNet set from " + root + " (3 classes, 6 train / 5 val images, 2 other files ignored; "
                + "training images randomly resized, cropped and flipped; decoded by " + ImageDecoders.describe()
                + ")", data.source());
        assertEquals(data.source(), DataSets.set("imagenet").describeSource(dir.toString(), null));
        float[] x = new float[224 * 224 * 3];
        data.test().copyImage(4, 0, x, new float[1]);
    }

    @Test
    void aMissingLayoutNamesTheFoldersLookedInAndTheLayoutExpected() throws Exception {
        Files.createDirectories(dir.resolve("imagenet/train"));
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> DataSets.set("imagenet").load(dir.toString(), null));
        String m = e.getMessage();
        assertTrue(m.startsWith("data_dir " + dir + ": ImageNet folders missing in " + dir + ": train, val; also "
                + "looked in " + dir.resolve("imagenet") + " (missing val), " + dir.resolve("ILSVRC2012")
                + " (no such directory); ImageNet is read in torchvision's ImageFolder layout: DIR/train/<class>/"
                + "*.JPEG and DIR/val/<class>/*.JPEG"), m);
        assertTrue(m.endsWith("then set data_dir or GRIDRUN_DATA_DIR to DIR"), m);

        e = assertThrows(UncheckedIOException.class, () -> DataSets.set("imagenet").load("", null));
        assertTrue(e.getMessage().startsWith("ImageNet folders train, val not found: data_dir is empty and "
                + "GRIDRUN_DATA_DIR is not set; ImageNet is read"), e.getMessage());
    }

    @Test
    void trainAndValMustHaveTheSameClassFolders() throws Exception {
        ImageTrees.writeTree(dir.resolve("train"));
        ImageTrees.writeTree(dir.resolve("val"));
        Files.createDirectories(dir.resolve("val/aardvark"));
        ImageTrees.writeJpeg(dir.resolve("val/aardvark/x.jpg"), ImageTrees.flat(8, 8, 0));
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> DataSets.set("imagenet").load(dir.toString(), null));
        assertTrue(e.getMessage().startsWith("ImageNet's train and val must have the same class folders, but "
                + dir.resolve("val") + "/aardvark has no counterpart in " + dir.resolve("train") + " (train has 3 "
                + "classes, val 4)"), e.getMessage());

        Files.walk(dir.resolve("val/aardvark")).sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        Files.walk(dir.resolve("val/cat")).sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        e = assertThrows(UncheckedIOException.class, () -> DataSets.set("imagenet").load(dir.toString(), null));
        assertTrue(e.getMessage().contains(dir.resolve("train") + "/cat has no counterpart in "
                + dir.resolve("val")), e.getMessage());
    }
}
