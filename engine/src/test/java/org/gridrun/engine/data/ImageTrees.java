package org.gridrun.engine.data;

import java.awt.image.BufferedImage;
import java.awt.image.DataBuffer;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/** Tiny image files and ImageFolder trees written by tests, each image a smooth pattern of its own. */
final class ImageTrees {
    private ImageTrees() {
    }

    /**
     * Writes {@code root/ant/a1.jpg} (40×30), {@code root/ant/a2.JPEG} (30×50), {@code root/bee/b1.jpeg} (64×64,
     * grey), {@code root/bee/notes.txt} (ignored), {@code root/cat/c1.png} (36×36), {@code root/cat/c2.jpg}
     * (48×40, CMYK) and {@code root/cat/sub/c3.jpg} (40×40): classes ant, bee, cat, seven images.
     */
    static void writeTree(Path root) throws IOException {
        Files.createDirectories(root.resolve("cat/sub"));
        Files.createDirectories(root.resolve("bee"));
        Files.createDirectories(root.resolve("ant"));
        writeJpeg(root.resolve("ant/a2.JPEG"), pattern(30, 50, 1));
        writeJpeg(root.resolve("ant/a1.jpg"), pattern(40, 30, 2));
        writeJpeg(root.resolve("bee/b1.jpeg"), grey(pattern(64, 64, 3)));
        Files.writeString(root.resolve("bee/notes.txt"), "not an image");
        writePng(root.resolve("cat/c1.png"), pattern(36, 36, 4));
        writeCmykJpeg(root.resolve("cat/c2.jpg"), 48, 40);
        writeJpeg(root.resolve("cat/sub/c3.jpg"), pattern(40, 40, 5));
    }

    /** A colour image whose channels vary smoothly with the position, differently for each {@code seed}. */
    static BufferedImage pattern(int width, int height, int seed) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int r = (int) (128 + 100 * Math.sin((x + 3 * seed) / 5.0 + y / 9.0));
                int g = (int) (128 + 90 * Math.cos(x / 7.0 - (y + seed) / 4.0));
                int b = (int) (128 + 80 * Math.sin((x + y) / 6.0 + seed));
                image.setRGB(x, y, r << 16 | g << 8 | b);
            }
        }
        return image;
    }

    /** A {@code width × height} image of one colour. */
    static BufferedImage flat(int width, int height, int rgb) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                image.setRGB(x, y, rgb);
            }
        }
        return image;
    }

    /** {@code image} in 8-bit grey. */
    static BufferedImage grey(BufferedImage image) {
        BufferedImage grey = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_BYTE_GRAY);
        grey.getGraphics().drawImage(image, 0, 0, null);
        return grey;
    }

    static void writeJpeg(Path file, BufferedImage image) throws IOException {
        write(file, new IIOImage(image, null, null));
    }

    static void writePng(Path file, BufferedImage image) throws IOException {
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer");
        }
    }

    /** A four-channel JPEG (stored CMYK, no Adobe marker) of a smooth pattern, as ImageIO writes a raster. */
    static void writeCmykJpeg(Path file, int width, int height) throws IOException {
        WritableRaster raster = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, width, height, 4, null);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                raster.setPixel(x, y, new int[] {200 - 2 * x, 100 + y, 50 + x + y, 230 - y});
            }
        }
        write(file, new IIOImage(raster, null, null));
    }

    /**
     * A YCCK JPEG whose every pixel is stored CMYK (200, 100, 50, 230), RGB (180, 90, 45) in Pillow's conversion:
     * ImageIO writes the Y, Cb, Cr, K raster as it is, and an Adobe marker saying "transform 2" (YCCK) is put after
     * the start-of-image marker, as Photoshop writes CMYK JPEGs.
     */
    static void writeYcckJpeg(Path file, int width, int height) throws IOException {
        int r = 255 - 200;
        int g = 255 - 100;
        int b = 255 - 50;
        int[] ycck = {(int) Math.round(0.299 * r + 0.587 * g + 0.114 * b),
            (int) Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b),
            (int) Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b), 230};
        WritableRaster raster = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, width, height, 4, null);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                raster.setPixel(x, y, ycck);
            }
        }
        write(file, new IIOImage(raster, null, null));
        byte[] plain = Files.readAllBytes(file);
        byte[] adobe = {(byte) 0xFF, (byte) 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 2};
        byte[] marked = new byte[plain.length + adobe.length];
        System.arraycopy(plain, 0, marked, 0, 2);
        System.arraycopy(adobe, 0, marked, 2, adobe.length);
        System.arraycopy(plain, 2, marked, 2 + adobe.length, plain.length - 2);
        Files.write(file, marked);
    }

    /** Writes {@code from}'s bytes to {@code to} up to the middle of its scan: a JPEG cut short. */
    static void truncate(Path from, Path to) throws IOException {
        byte[] bytes = Files.readAllBytes(from);
        int scan = 0;
        while (!((bytes[scan] & 0xFF) == 0xFF && (bytes[scan + 1] & 0xFF) == 0xDA)) {
            scan++;
        }
        Files.write(to, Arrays.copyOf(bytes, (scan + bytes.length) / 2));
    }

    private static void write(Path file, IIOImage image) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(0.95f);
        try (ImageOutputStream out = ImageIO.createImageOutputStream(file.toFile())) {
            writer.setOutput(out);
            writer.write(null, image, param);
        } finally {
            writer.dispose();
        }
    }
}
