package org.gridrun.engine.compress;

/**
 * Little-endian int and float access to byte arrays, without allocation.
 *
 * <p>Plain byte loads and stores with shifts, not a {@code byteArrayViewVarHandle}: the handle compiles to one load
 * only when the JIT inlines its whole call chain, and inside the large loops of the codecs it often stops inlining
 * ({@code VarHandleByteArrayAsInts$ArrayHandle.index} out of line was the top frame of a profile of fp16, qsgd and
 * smaq); four byte operations always inline and cost less than one such call.
 */
final class LittleEndian {
    private LittleEndian() {
    }

    static int getInt(byte[] bytes, int index) {
        return bytes[index] & 0xFF | (bytes[index + 1] & 0xFF) << 8 | (bytes[index + 2] & 0xFF) << 16
                | bytes[index + 3] << 24;
    }

    static void putInt(byte[] bytes, int index, int value) {
        bytes[index + 3] = (byte) (value >>> 24);
        bytes[index] = (byte) value;
        bytes[index + 1] = (byte) (value >>> 8);
        bytes[index + 2] = (byte) (value >>> 16);
    }

    static float getFloat(byte[] bytes, int index) {
        return Float.intBitsToFloat(getInt(bytes, index));
    }

    static void putFloat(byte[] bytes, int index, float value) {
        putInt(bytes, index, Float.floatToRawIntBits(value));
    }
}
