package org.gridrun.engine.compress;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian int and float access to byte arrays, without allocation (the JIT compiles these to plain loads). */
final class LittleEndian {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle FLOAT =
            MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {
    }

    static int getInt(byte[] bytes, int index) {
        return (int) INT.get(bytes, index);
    }

    static void putInt(byte[] bytes, int index, int value) {
        INT.set(bytes, index, value);
    }

    static float getFloat(byte[] bytes, int index) {
        return (float) FLOAT.get(bytes, index);
    }

    static void putFloat(byte[] bytes, int index, float value) {
        FLOAT.set(bytes, index, value);
    }
}
