package org.gridrun.engine.data;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.gridrun.engine.run.BadFileException;

/**
 * Decodes JPEGs with libjpeg-turbo through its Java binding, Debian's {@code libturbojpeg-java}
 * ({@code /usr/share/java/turbojpeg.jar} and the JNI functions in {@code libturbojpeg.so.0}); PNGs go to ImageIO.
 *
 * <p>The binding is not on Maven Central, so its jar is loaded at run time by a class loader of its own, which also
 * tells the binding where the native library is (Debian installs no {@code libturbojpeg.so} link, where the binding
 * looks, without the {@code -dev} package). {@code TJDecompressor} is called reflectively; each thread has its own
 * decompressor and output buffers. CMYK and YCCK JPEGs are decoded to stored CMYK and converted by {@link Cmyk}.
 *
 * <p>libjpeg-turbo reports recoverable damage as a warning after decoding the whole image; a warning that the data
 * ended early means missing rows filled with grey, and the image is refused, as Pillow refuses it; other warnings
 * (extraneous bytes between markers) are accepted, as Pillow accepts them. Decoding uses libjpeg's defaults
 * (accurate integer DCT, smooth chroma upsampling), as Pillow does, so the pixels are Pillow's.
 */
final class TurboJpegDecoder implements ImageDecoder {
    private static final String PACKAGE = "org.libjpegturbo.turbojpeg.";

    private final String description;
    private final ImageDecoder others;
    private final Constructor<?> newDecompressor;
    private final Method setSourceImage;
    private final Method getWidth;
    private final Method getHeight;
    private final Method getColorspace;
    private final Method decompress;
    private final Method getErrorCode;
    private final Class<?> tjException;
    private final int rgbFormat;
    private final int cmykFormat;
    private final int cmykSpace;
    private final int ycckSpace;
    private final int warning;
    private final ThreadLocal<State> states = ThreadLocal.withInitial(State::new);

    /**
     * Loads the binding from {@code jar} with the native library {@code library}; fails when either cannot be
     * loaded or the binding lacks the libjpeg-turbo 2 API.
     */
    TurboJpegDecoder(Path jar, Path library, String version, ImageDecoder others) throws ReflectiveOperationException,
            MalformedURLException {
        ClassLoader loader = new NativeLoader(jar, library);
        Class<?> tj = Class.forName(PACKAGE + "TJ", true, loader);
        Class<?> decompressor = Class.forName(PACKAGE + "TJDecompressor", true, loader);
        this.tjException = Class.forName(PACKAGE + "TJException", true, loader);
        this.newDecompressor = decompressor.getConstructor();
        this.setSourceImage = decompressor.getMethod("setSourceImage", byte[].class, int.class);
        this.getWidth = decompressor.getMethod("getWidth");
        this.getHeight = decompressor.getMethod("getHeight");
        this.getColorspace = decompressor.getMethod("getColorspace");
        this.decompress = decompressor.getMethod("decompress", byte[].class, int.class, int.class, int.class,
                int.class, int.class, int.class, int.class);
        this.getErrorCode = tjException.getMethod("getErrorCode");
        this.rgbFormat = tj.getField("PF_RGB").getInt(null);
        this.cmykFormat = tj.getField("PF_CMYK").getInt(null);
        this.cmykSpace = tj.getField("CS_CMYK").getInt(null);
        this.ycckSpace = tj.getField("CS_YCCK").getInt(null);
        this.warning = tj.getField("ERR_WARNING").getInt(null);
        this.others = others;
        this.description = "libjpeg-turbo " + version + " via " + jar;
        states.get();
    }

    @Override
    public RgbImage decode(byte[] bytes, int length) throws IOException {
        if (!ImageFormat.isJpeg(bytes, length)) {
            return others.decode(bytes, length);
        }
        State state = states.get();
        try {
            setSourceImage.invoke(state.decompressor, bytes, length);
            int width = (Integer) getWidth.invoke(state.decompressor);
            int height = (Integer) getHeight.invoke(state.decompressor);
            int space = (Integer) getColorspace.invoke(state.decompressor);
            int pixels = Math.multiplyExact(width, height);
            byte[] rgb = state.buffers.bytes(0, 3 * pixels);
            if (space == cmykSpace || space == ycckSpace) {
                byte[] cmyk = state.buffers.bytes(1, 4 * pixels);
                decompress(state, cmyk, width, height, cmykFormat);
                Cmyk.toRgb(cmyk, pixels, rgb);
            } else {
                decompress(state, rgb, width, height, rgbFormat);
            }
            return new RgbImage(width, height, rgb);
        } catch (InvocationTargetException e) {
            throw new IOException(message(e.getCause()), e.getCause());
        } catch (ReflectiveOperationException | ArithmeticException e) {
            throw new IOException(e.toString(), e);
        }
    }

    @Override
    public String description() {
        return description;
    }

    /** Decodes the source image into {@code out}; a warning other than an early end of data is ignored. */
    private void decompress(State state, byte[] out, int width, int height, int format)
            throws ReflectiveOperationException, IOException {
        try {
            decompress.invoke(state.decompressor, out, 0, 0, width, 0, height, format, 0);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            boolean isWarning = tjException.isInstance(cause) && (Integer) getErrorCode.invoke(cause) == warning;
            if (!isWarning) {
                throw e;
            }
            if (ImageFormat.meansTruncated(message(cause))) {
                throw new IOException("the file is cut short: " + message(cause), cause);
            }
        }
    }

    private static String message(Throwable t) {
        return BadFileException.messageOf(t);
    }

    /** One thread's decompressor and output buffers, grown as images need. */
    private final class State {
        final Object decompressor;
        final ReusedBuffers buffers = new ReusedBuffers(2, 0);

        State() {
            try {
                decompressor = newDecompressor.newInstance();
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("libjpeg-turbo cannot create a decompressor: "
                        + message(e.getCause()), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("libjpeg-turbo cannot create a decompressor: " + e, e);
            }
        }
    }

    /** Loads the binding's jar and answers its {@code System.loadLibrary("turbojpeg")} with {@code library}. */
    private static final class NativeLoader extends URLClassLoader {
        private final Path library;

        NativeLoader(Path jar, Path library) throws MalformedURLException {
            super(new URL[] {jar.toUri().toURL()}, TurboJpegDecoder.class.getClassLoader());
            this.library = library;
        }

        @Override
        protected String findLibrary(String name) {
            return name.equals("turbojpeg") ? library.toString() : super.findLibrary(name);
        }
    }
}
