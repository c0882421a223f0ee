package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.jobs.UserInputException;

/**
 * A gradient on disk: NumPy {@code .npy} (float32, little-endian, C order, any shape; format 1.0–3.0) or raw
 * little-endian float32 ({@code .f32}, any other extension).
 *
 * <p>The format is decided by the extension and checked against the content: a {@code .npy} file must begin with
 * NumPy's magic, and a file of another extension that begins with it is refused rather than read as floats. Every
 * problem is a {@link BadFileException} naming the file, the byte where it makes sense, and what to do; values that
 * are NaN or infinite are counted and the first one's index given.
 *
 * @param values the values, flattened in C order
 * @param shape  the array's shape ({@code [n]} for raw files)
 * @param npy    whether it came from (and is written back as) {@code .npy}
 */
record GradientFile(float[] values, int[] shape, boolean npy) {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern ORDER = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");
    private static final String SAVE_AGAIN = "save it again with np.save(path, arr.astype(np.float32))";

    /** Reads {@code file}; a wrong format fails naming the file and what is wrong. */
    static GradientFile read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + file + ": " + e.getMessage(), e);
        }
        boolean magic = startsWithMagic(bytes);
        boolean npyName = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy");
        if (npyName && !magic) {
            throw new BadFileException(file, "byte 0", "a .npy file must begin with NumPy's magic \\x93NUMPY, found "
                    + BadFileException.excerpt(bytes, 0, 6), "save it with np.save, or name a file of raw "
                    + "little-endian float32 values .f32");
        }
        if (!npyName && magic) {
            throw new BadFileException(file, "byte 0", "begins with NumPy's magic \\x93NUMPY, so it is not raw "
                    + "float32", "name it .npy to read it as NumPy");
        }
        return finite(file, magic ? readNpy(file, bytes) : readRaw(file, bytes));
    }

    private static GradientFile readRaw(Path file, byte[] bytes) {
        if (bytes.length % 4 != 0) {
            throw new BadFileException(file, null, "a raw float32 file must hold a multiple of 4 bytes, found "
                    + bytes.length, "give whole little-endian float32 values, or a .npy file");
        }
        float[] values = floats(bytes, 0, bytes.length / 4, file);
        return new GradientFile(values, new int[] {values.length}, false);
    }

    private static GradientFile readNpy(Path file, byte[] bytes) {
        if (bytes.length < 10) {
            throw new BadFileException(file, null, "the file ends after " + bytes.length + " bytes, inside the "
                    + "preamble of a .npy file", "the file is cut short; " + SAVE_AGAIN);
        }
        int major = bytes[6];
        if (major < 1 || major > 3) {
            throw new BadFileException(file, "byte 6", "NumPy format version " + major + "." + bytes[7]
                    + ", expected 1.0, 2.0 or 3.0", SAVE_AGAIN);
        }
        int start = major == 1 ? 10 : 12;
        if (bytes.length < start) {
            throw new BadFileException(file, null, "the file ends after " + bytes.length + " bytes, inside the "
                    + start + "-byte preamble of a .npy file", "the file is cut short; " + SAVE_AGAIN);
        }
        long headerLength = major == 1 ? (bytes[8] & 0xff) | (bytes[9] & 0xff) << 8
                : ByteBuffer.wrap(bytes, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
        if (headerLength > bytes.length - start) {
            throw new BadFileException(file, "byte 8", "the header is declared " + headerLength + " bytes long but "
                    + "only " + (bytes.length - start) + " bytes follow the preamble", "the file is cut short; "
                    + SAVE_AGAIN);
        }
        String header = new String(bytes, start, (int) headerLength, StandardCharsets.ISO_8859_1);
        String descr = group(DESCR, header, file, "descr");
        if (!descr.equals("<f4") && !descr.equals("=f4") && !descr.equals("|f4")) {
            throw new BadFileException(file, "byte " + start, "dtype " + descr + " is not little-endian float32 "
                    + "('<f4')", "convert with arr.astype(np.float32)");
        }
        if (group(ORDER, header, file, "fortran_order").equals("True")) {
            throw new BadFileException(file, "byte " + start, "Fortran order is not supported",
                    "save np.ascontiguousarray(arr)");
        }
        int[] shape = shape(file, start, group(SHAPE, header, file, "shape"));
        long count = 1;
        for (int d : shape) {
            count *= d;
        }
        long data = start + headerLength;
        if (bytes.length - data != 4 * count) {
            throw new BadFileException(file, "byte " + data, "the header's shape "
                    + Arrays.toString(shape) + " needs " + count + " float32 values (" + 4 * count + " bytes) but "
                    + (bytes.length - data) + " bytes follow the header", "the file is cut short or was changed; "
                    + SAVE_AGAIN);
        }
        return new GradientFile(floats(bytes, (int) data, (int) count, file), shape, true);
    }

    /** The dimensions of the header's shape tuple; {@code [1]} for a scalar. */
    private static int[] shape(Path file, int start, String tuple) {
        List<Integer> dims = new ArrayList<>();
        long count = 1;
        for (String d : tuple.split(",")) {
            if (d.isBlank()) {
                continue;
            }
            int dim;
            try {
                dim = Integer.parseInt(d.trim());
            } catch (NumberFormatException e) {
                dim = -1;
            }
            count *= Math.max(dim, 0);
            if (dim < 0 || count > Integer.MAX_VALUE / 4) {
                throw new BadFileException(file, "byte " + start, "the shape (" + tuple.trim() + ") is not a "
                        + "tuple of sizes whose product is below " + Integer.MAX_VALUE / 4, SAVE_AGAIN);
            }
            dims.add(dim);
        }
        return dims.isEmpty() ? new int[] {1} : dims.stream().mapToInt(Integer::intValue).toArray();
    }

    /** {@code gradient}, once every value is known to be finite. */
    private static GradientFile finite(Path file, GradientFile gradient) {
        float[] v = gradient.values();
        int bad = 0;
        int first = -1;
        for (int i = 0; i < v.length; i++) {
            if (!Float.isFinite(v[i])) {
                bad++;
                first = first < 0 ? i : first;
            }
        }
        if (bad > 0) {
            throw new BadFileException(file, null, bad + " of its " + v.length + " values are NaN or infinite, the "
                    + "first at index " + first + " (" + v[first] + ")", "compressors need finite gradients: "
                    + "replace them (np.nan_to_num) or find what wrote them");
        }
        return gradient;
    }

    /** Writes {@code values} with this file's format and shape. */
    void write(Path file, float[] out) {
        ByteBuffer data = ByteBuffer.allocate(4 * out.length).order(ByteOrder.LITTLE_ENDIAN);
        data.asFloatBuffer().put(out);
        try {
            if (!npy) {
                Files.write(file, data.array());
                return;
            }
            StringBuilder dims = new StringBuilder();
            for (int d : shape) {
                dims.append(d).append(", ");
            }
            String text = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + (shape.length == 1
                    ? shape[0] + "," : dims.substring(0, dims.length() - 2)) + "), }";
            int pad = 64 - (10 + text.length() + 1) % 64;
            String header = text + " ".repeat(pad % 64) + "\n";
            ByteBuffer head = ByteBuffer.allocate(10 + header.length()).order(ByteOrder.LITTLE_ENDIAN);
            head.put(MAGIC).put((byte) 1).put((byte) 0).putShort((short) header.length())
                    .put(header.getBytes(StandardCharsets.ISO_8859_1));
            byte[] all = new byte[head.capacity() + data.capacity()];
            System.arraycopy(head.array(), 0, all, 0, head.capacity());
            System.arraycopy(data.array(), 0, all, head.capacity(), data.capacity());
            Files.write(file, all);
        } catch (IOException e) {
            throw new UserInputException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean startsWithMagic(byte[] bytes) {
        if (bytes.length < MAGIC.length) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    private static String group(Pattern pattern, String header, Path file, String field) {
        Matcher m = pattern.matcher(header);
        if (!m.find()) {
            throw new BadFileException(file, "byte 10", "the .npy header has no " + field + ": "
                    + BadFileException.excerpt(header.getBytes(StandardCharsets.ISO_8859_1), 0, 80), SAVE_AGAIN);
        }
        return m.group(1);
    }

    private static float[] floats(byte[] bytes, int offset, int count, Path file) {
        if (count == 0) {
            throw new BadFileException(file, null, "holds no values", "give a gradient of at least one value");
        }
        float[] values = new float[count];
        ByteBuffer.wrap(bytes, offset, 4 * count).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
        return values;
    }
}
