package org.gridrun.engine.data;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import javax.imageio.IIOException;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;
import org.gridrun.engine.run.BadFileException;

/**
 * Decodes JPEG and PNG files with the JDK's ImageIO: slower than libjpeg-turbo, always there.
 *
 * <p>Each thread keeps one reader per format. A four-channel JPEG (CMYK, or YCCK by its Adobe marker) is read as
 * its raw raster, which every JDK supports, and converted by {@link Cmyk}; greyscale is replicated. A JPEG the
 * reader warns is cut short (a missing end marker, a premature end of data, which ImageIO would fill with grey) is
 * refused, as Pillow refuses it; other warnings (extraneous bytes) are accepted, as Pillow accepts them.
 */
final class ImageIoDecoder implements ImageDecoder {
    private final ThreadLocal<Readers> readers = ThreadLocal.withInitial(Readers::new);

    @Override
    public RgbImage decode(byte[] bytes, int length) throws IOException {
        boolean jpeg = ImageFormat.isJpeg(bytes, length);
        if (!jpeg && !ImageFormat.isPng(bytes, length)) {
            throw new IOException("neither a JPEG nor a PNG file (" + ImageFormat.describeStart(bytes, length)
                    + ")");
        }
        Readers own = readers.get();
        ImageReader reader = jpeg ? own.jpeg : own.png;
        own.warnings.clear();
        try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes, 0, length))) {
            reader.setInput(in, true, false);
            RgbImage image = read(reader, bytes, length, jpeg);
            for (String warning : own.warnings) {
                if (ImageFormat.meansTruncated(warning)) {
                    throw new IOException("the file is cut short: " + warning);
                }
            }
            return image;
        } catch (IIOException | RuntimeException e) {
            throw new IOException(BadFileException.messageOf(e), e);
        } finally {
            reader.setInput(null);
        }
    }

    @Override
    public String description() {
        return "the JDK's ImageIO";
    }

    private static RgbImage read(ImageReader reader, byte[] bytes, int length, boolean jpeg) throws IOException {
        ImageFormat.JpegHeader header = jpeg ? ImageFormat.jpegHeader(bytes, length) : null;
        if (header != null && header.components() == 4) {
            Raster raster = reader.readRaster(0, null);
            return Cmyk.toRgb(raster, header.adobeTransform() == 2);
        }
        return rgb(reader.read(0));
    }

    /** The pixels of {@code image} as RGB bytes: copied from 8-bit BGR or grey rasters, else through getRGB. */
    static RgbImage rgb(BufferedImage image) {
        int width = image.getWidth();
        int height = image.getHeight();
        int pixels = width * height;
        byte[] rgb = new byte[3 * pixels];
        if (image.getType() == BufferedImage.TYPE_3BYTE_BGR) {
            byte[] bgr = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
            for (int i = 0; i < 3 * pixels; i += 3) {
                rgb[i] = bgr[i + 2];
                rgb[i + 1] = bgr[i + 1];
                rgb[i + 2] = bgr[i];
            }
        } else if (image.getType() == BufferedImage.TYPE_BYTE_GRAY) {
            byte[] grey = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
            for (int i = 0; i < pixels; i++) {
                rgb[3 * i] = grey[i];
                rgb[3 * i + 1] = grey[i];
                rgb[3 * i + 2] = grey[i];
            }
        } else {
            int[] argb = image.getRGB(0, 0, width, height, null, 0, width);
            for (int i = 0; i < pixels; i++) {
                rgb[3 * i] = (byte) (argb[i] >> 16);
                rgb[3 * i + 1] = (byte) (argb[i] >> 8);
                rgb[3 * i + 2] = (byte) argb[i];
            }
        }
        return new RgbImage(width, height, rgb);
    }

    /** One thread's readers and the warnings they reported for the image being read. */
    private static final class Readers {
        final List<String> warnings = new ArrayList<>();
        final ImageReader jpeg = reader("jpeg");
        final ImageReader png = reader("png");

        private ImageReader reader(String format) {
            Iterator<ImageReader> all = ImageIO.getImageReadersByFormatName(format);
            if (!all.hasNext()) {
                throw new IllegalStateException("this JDK's ImageIO has no " + format.toUpperCase(Locale.ROOT)
                        + " reader");
            }
            ImageReader reader = all.next();
            reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
            return reader;
        }
    }
}
