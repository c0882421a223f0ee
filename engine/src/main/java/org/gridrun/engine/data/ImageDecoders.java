package org.gridrun.engine.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which decoder reads JPEG files: libjpeg-turbo through Debian's {@code libturbojpeg-java} when it is installed and
 * loads, else the JDK's ImageIO. {@link #describe()} says which, for the trainer's log.
 *
 * <p>The binding's jar is {@code /usr/share/java/turbojpeg.jar} (or the system property
 * {@code gridrun.turbojpeg.jar}); its native library {@code libturbojpeg.so.0} is looked for in the system's library
 * directories (or taken from {@code gridrun.turbojpeg.library}). Looking never throws: whatever fails leaves ImageIO,
 * and {@link #describe()} says why.
 */
public final class ImageDecoders {
    /** Where Debian's {@code libturbojpeg-java} installs the binding. */
    static final Path TURBO_JAR = Path.of("/usr/share/java/turbojpeg.jar");

    private static final String VERSION_MARK = "libjpeg-turbo version ";

    private ImageDecoders() {
    }

    /**
     * Which decoder runs, e.g. {@code libjpeg-turbo 2.1.5 via /usr/share/java/turbojpeg.jar} or
     * {@code the JDK's ImageIO (install libturbojpeg-java for faster decoding)}.
     */
    public static String describe() {
        return Chosen.DESCRIPTION;
    }

    /** The decoder data sets read files with: libjpeg-turbo when it loads, else ImageIO. */
    static ImageDecoder best() {
        return Chosen.DECODER;
    }

    /** The JDK's ImageIO decoder. */
    static ImageDecoder imageIo() {
        return Chosen.IMAGE_IO;
    }

    /** The libjpeg-turbo decoder, or null when it does not load (then {@link #describe()} says why). */
    static ImageDecoder turbo() {
        return Chosen.DECODER == Chosen.IMAGE_IO ? null : Chosen.DECODER;
    }

    /** The native library directories searched for {@code libturbojpeg.so.0}, most specific first. */
    static List<Path> libraryDirectories() {
        String arch = System.getProperty("os.arch", "");
        String multiarch = switch (arch) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64", "arm64" -> "aarch64-linux-gnu";
            default -> arch + "-linux-gnu";
        };
        return List.of(Path.of("/usr/lib", multiarch), Path.of("/usr/lib64"), Path.of("/usr/lib"),
                Path.of("/usr/local/lib"), Path.of("/opt/libjpeg-turbo/lib64"), Path.of("/opt/libjpeg-turbo/lib"));
    }

    /** The decoder chosen once, on first use, and what {@link #describe()} says of it. */
    private static final class Chosen {
        static final ImageDecoder IMAGE_IO = new ImageIoDecoder();
        static final ImageDecoder DECODER;
        static final String DESCRIPTION;

        static {
            String unavailable;
            ImageDecoder turbo = null;
            Path jar = Path.of(System.getProperty("gridrun.turbojpeg.jar", TURBO_JAR.toString()));
            Path library = library();
            if (!Files.isRegularFile(jar)) {
                unavailable = "install libturbojpeg-java for faster decoding";
            } else if (library == null) {
                unavailable = "libturbojpeg-java is installed but libturbojpeg.so.0 is not in "
                        + libraryDirectories() + "; install libturbojpeg0 for faster decoding";
            } else {
                try {
                    turbo = new TurboJpegDecoder(jar, library, version(library), IMAGE_IO);
                    unavailable = null;
                } catch (ReflectiveOperationException | IOException | LinkageError | RuntimeException e) {
                    unavailable = jar + " with " + library + " does not load (" + e + "); reinstall "
                            + "libturbojpeg-java and libturbojpeg0 for faster decoding";
                }
            }
            DECODER = turbo == null ? IMAGE_IO : turbo;
            DESCRIPTION = DECODER.description() + (turbo == null ? " (" + unavailable + ")" : "");
        }
    }

    private static Path library() {
        String given = System.getProperty("gridrun.turbojpeg.library");
        if (given != null) {
            return Files.isRegularFile(Path.of(given)) ? Path.of(given) : null;
        }
        List<Path> candidates = new ArrayList<>();
        for (Path dir : libraryDirectories()) {
            candidates.add(dir.resolve("libturbojpeg.so.0"));
            candidates.add(dir.resolve("libturbojpeg.so"));
        }
        return candidates.stream().filter(Files::isRegularFile).findFirst().orElse(null);
    }

    /** The version libjpeg-turbo prints in its messages ({@code 2.1.5}), read from the library; 2.x if absent. */
    private static String version(Path library) throws IOException {
        String text = new String(Files.readAllBytes(library), StandardCharsets.ISO_8859_1);
        int at = text.indexOf(VERSION_MARK);
        if (at < 0) {
            return "2.x";
        }
        int from = at + VERSION_MARK.length();
        int to = from;
        while (to < text.length() && (Character.isDigit(text.charAt(to)) || text.charAt(to) == '.')) {
            to++;
        }
        return to > from ? text.substring(from, to).toLowerCase(Locale.ROOT) : "2.x";
    }
}
