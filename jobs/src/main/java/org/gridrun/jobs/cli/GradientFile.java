package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridrun.jobs.UserInputException;

/**
 * A gradient on disk: NumPy {@code .npy} (float32, little-endian, C order, any shape; format 1.0–3.0) or raw
 * little-endian float32 ({@code .f32}, any other extension).
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

    /** Reads {@code file}; a wrong format fails naming the file and what is wrong. */
    static GradientFile read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (!startsWithMagic(bytes)) {
            if (bytes.length % 4 != 0) {
                throw new UserInputException(file + ": a raw float32 file must hold a multiple of 4 bytes, found "
                        + bytes.length + " (or give a .npy file)");
            }
            float[] values = floats(bytes, 0, bytes.length / 4, file);
            return new GradientFile(values, new int[] {values.length}, false);
        }
        int major = bytes[6];
        int headerLength = major == 1 ? (bytes[8] & 0xff) | (bytes[9] & 0xff) << 8
                : ByteBuffer.wrap(bytes, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int start = major == 1 ? 10 : 12;
        String header = new String(bytes, start, headerLength, StandardCharsets.ISO_8859_1);
        String descr = group(DESCR, header, file, "descr");
        if (!descr.equals("<f4") && !descr.equals("=f4") && !descr.equals("|f4")) {
            throw new UserInputException(file + ": dtype " + descr + " is not little-endian float32 ('<f4'); "
                    + "convert with arr.astype(np.float32)");
        }
        if (group(ORDER, header, file, "fortran_order").equals("True")) {
            throw new UserInputException(file + ": Fortran order is not supported; save np.ascontiguousarray(arr)");
        }
        String[] dims = group(SHAPE, header, file, "shape").split(",");
        int count = 1;
        int rank = 0;
        int[] shape = new int[dims.length];
        for (String d : dims) {
            if (!d.isBlank()) {
                shape[rank] = Integer.parseInt(d.trim());
                count = Math.multiplyExact(count, shape[rank++]);
            }
        }
        int[] exact = java.util.Arrays.copyOf(shape, Math.max(rank, 1));
        if (rank == 0) {
            exact[0] = 1;
        }
        int data = start + headerLength;
        if (bytes.length - data != 4L * count) {
            throw new UserInputException(file + ": the header says " + count + " values but the file holds "
                    + (bytes.length - data) / 4);
        }
        return new GradientFile(floats(bytes, data, count, file), exact, true);
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
        if (bytes.length < 10) {
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
            throw new UserInputException(file + ": the .npy header has no " + field + ": " + header.trim());
        }
        return m.group(1);
    }

    private static float[] floats(byte[] bytes, int offset, int count, Path file) {
        if (count == 0) {
            throw new UserInputException(file + " holds no values");
        }
        float[] values = new float[count];
        ByteBuffer.wrap(bytes, offset, 4 * count).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
        return values;
    }
}
