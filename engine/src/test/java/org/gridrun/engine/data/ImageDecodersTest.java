package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both decoders read colour, grey, CMYK and YCCK JPEGs and PNGs alike, and refuse files cut short. */
class ImageDecodersTest {
    @TempDir
    Path dir;

    private static RgbImage decode(ImageDecoder decoder, Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return decoder.decode(bytes, bytes.length);
    }

    @Test
    void describeNamesTheDecoderThatRuns() {
        String described = ImageDecoders.describe();
        if (ImageDecoders.turbo() == null) {
            assertTrue(described.startsWith("the JDK's ImageIO ("), described);
        } else {
            assertTrue(described.matches("libjpeg-turbo \\d[\\d.x]* via .*turbojpeg\\.jar"), described);
            assertEquals(described, ImageDecoders.best().description());
        }
    }

    @Test
    void imageIoReadsEveryKindWithPillowsColours() throws Exception {
        checkKinds(ImageDecoders.imageIo());
    }

    @Test
    void libjpegTurboReadsEveryKindWithPillowsColours() throws Exception {
        assumeTrue(ImageDecoders.turbo() != null, "libjpeg-turbo is not installed: " + ImageDecoders.describe());
        checkKinds(ImageDecoders.turbo());
    }

    @Test
    void bothDecodersGiveNearlyTheSamePixels() throws Exception {
        assumeTrue(ImageDecoders.turbo() != null, "libjpeg-turbo is not installed: " + ImageDecoders.describe());
        ImageTrees.writeTree(dir);
        ImageTrees.writeYcckJpeg(dir.resolve("ycck.jpg"), 24, 16);
        for (String name : new String[] {"ant/a1.jpg", "ant/a2.JPEG", "bee/b1.jpeg", "cat/c1.png", "cat/c2.jpg",
            "ycck.jpg"}) {
            RgbImage a = decode(ImageDecoders.imageIo(), dir.resolve(name));
            RgbImage b = decode(ImageDecoders.turbo(), dir.resolve(name));
            assertEquals(a.width(), b.width(), name);
            assertEquals(a.height(), b.height(), name);
            int worst = 0;
            for (int i = 0; i < 3 * a.width() * a.height(); i++) {
                worst = Math.max(worst, Math.abs((a.pixels()[i] & 0xFF) - (b.pixels()[i] & 0xFF)));
            }
            assertTrue(worst <= 2, name + " differs by " + worst);
        }
    }

    private void checkKinds(ImageDecoder decoder) throws Exception {
        ImageTrees.writeJpeg(dir.resolve("colour.jpg"), ImageTrees.flat(20, 10, 0x3C78B4));
        RgbImage colour = decode(decoder, dir.resolve("colour.jpg"));
        assertEquals(20, colour.width());
        assertEquals(10, colour.height());
        assertNear(new int[] {0x3C, 0x78, 0xB4}, colour, 2);

        ImageTrees.writeJpeg(dir.resolve("grey.jpg"), ImageTrees.grey(ImageTrees.flat(9, 7, 0x808080)));
        RgbImage grey = decode(decoder, dir.resolve("grey.jpg"));
        assertNear(new int[] {128, 128, 128}, grey, 1);

        ImageTrees.writeCmykJpeg(dir.resolve("cmyk.jpg"), 8, 8);
        RgbImage cmyk = decode(decoder, dir.resolve("cmyk.jpg"));
        int[] pixel = {cmyk.value(0, 0, 0), cmyk.value(0, 0, 1), cmyk.value(0, 0, 2)};
        assertTrue(Math.abs(pixel[0] - 180) <= 3 && Math.abs(pixel[1] - 90) <= 3 && Math.abs(pixel[2] - 45) <= 3,
                "CMYK (200, 100, 50, 230) is about RGB (180, 90, 45), found " + java.util.Arrays.toString(pixel));

        ImageTrees.writeYcckJpeg(dir.resolve("ycck.jpg"), 16, 8);
        assertNear(new int[] {180, 90, 45}, decode(decoder, dir.resolve("ycck.jpg")), 3);

        ImageTrees.writePng(dir.resolve("a.png"), ImageTrees.flat(5, 4, 0x010203));
        assertNear(new int[] {1, 2, 3}, decode(decoder, dir.resolve("a.png")), 0);
        Files.copy(dir.resolve("a.png"), dir.resolve("png-named.JPEG"));
        assertNear(new int[] {1, 2, 3}, decode(decoder, dir.resolve("png-named.JPEG")), 0);

        ImageTrees.writeJpeg(dir.resolve("whole.jpg"), ImageTrees.pattern(64, 48, 1));
        ImageTrees.truncate(dir.resolve("whole.jpg"), dir.resolve("cut.jpg"));
        IOException cut = assertThrows(IOException.class, () -> decode(decoder, dir.resolve("cut.jpg")));
        assertTrue(cut.getMessage().startsWith("the file is cut short: "), cut.getMessage());
    }

    private static void assertNear(int[] rgb, RgbImage image, int tolerance) {
        for (int y = 0; y < image.height(); y++) {
            for (int x = 0; x < image.width(); x++) {
                for (int c = 0; c < 3; c++) {
                    assertTrue(Math.abs(image.value(x, y, c) - rgb[c]) <= tolerance, "pixel (" + x + ", " + y
                            + ") channel " + c + " is " + image.value(x, y, c) + ", expected " + rgb[c]);
                }
            }
        }
    }
}
