package org.gridrun.engine.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * A file from outside the code that gridrun cannot use: a gradient, a data file, a checkpoint, a metric spool, a
 * run directory's {@code experiment.yaml} or {@code status}, the store, a figure spec.
 *
 * <p>Every reader of such data reports it the one way this class words it, on one line:
 * {@code FILE[:LINE:COL | , POSITION]: PROBLEM; ADVICE}: the file, where in it when that makes sense (a line and
 * column, a byte offset, a record or an index), what was found against what was expected, and what to do. The
 * command line turns it into exit code 2 and a trainer into the experiment's FAILED state, both with this message
 * and no exception name. It is an {@link UncheckedIOException}, so callers that already handle unreadable files
 * handle it too.
 */
public class BadFileException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * The failure to use {@code file}.
     *
     * @param file     the file
     * @param position where in it ({@code line 3}, {@code byte 16}, {@code 4:7}), or null for the file as a whole
     * @param problem  what was found and what was expected
     * @param advice   what to do about it
     * @param cause    the underlying failure, or null
     */
    public BadFileException(Path file, String position, String problem, String advice, Throwable cause) {
        super(message(file, position, problem, advice), cause instanceof IOException io ? io
                : new IOException(problem, cause));
        this.file = Objects.requireNonNull(file, "file");
    }

    /** As the five-argument constructor, without a cause. */
    public BadFileException(Path file, String position, String problem, String advice) {
        this(file, position, problem, advice, null);
    }

    /** The file that cannot be used. */
    public Path file() {
        return file;
    }

    /** The one line: {@code FILE:3:7: PROBLEM; ADVICE} for a position in digits, else {@code FILE, byte 8: …}. */
    public static String message(Path file, String position, String problem, String advice) {
        String where = position == null || position.isEmpty() ? file.toString()
                : Character.isDigit(position.charAt(0)) ? file + ":" + position : file + ", " + position;
        String text = where + ": " + problem + (advice == null || advice.isEmpty() ? "" : "; " + advice);
        return text.replaceAll("[\\r\\n]+", " ");
    }

    /**
     * Up to {@code max} bytes of {@code bytes} from {@code from}, quoted, for a message: printable ASCII as it is,
     * any other byte as {@code \xNN}, and {@code …} when more follow.
     */
    public static String excerpt(byte[] bytes, int from, int max) {
        StringBuilder text = new StringBuilder("'");
        for (int i = Math.max(0, from); i < Math.min(bytes.length, from + max); i++) {
            int b = bytes[i] & 0xff;
            text.append(b >= 0x20 && b < 0x7f && b != '\\' ? String.valueOf((char) b)
                    : String.format(Locale.ROOT, "\\x%02x", b));
        }
        return text.append(bytes.length > from + max ? "…'" : "'").toString();
    }

    /** What a user is told of {@code failure}: its message, never its class name. */
    public static String messageOf(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? "an internal error without a message" : message;
    }

    /**
     * The text of {@code bytes}, read from {@code file}, as UTF-8; bytes that are not UTF-8 fail at the first of them,
     * with {@code advice}.
     */
    public static String utf8(Path file, byte[] bytes, String advice) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw new BadFileException(file, "byte " + in.position(), "not UTF-8 text: "
                    + excerpt(bytes, in.position(), 8), advice);
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /**
     * A parser's message on one line: the lines that are not indented, joined by {@code "; "}; SnakeYAML's marks
     * ({@code  in 'reader', line L, column C:}) and source snippets, which are, are left out, as the position is
     * given apart.
     */
    public static String oneLine(String parserMessage) {
        return String.valueOf(parserMessage).lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                .map(String::strip).reduce((a, b) -> a + "; " + b).orElse("");
    }
}
