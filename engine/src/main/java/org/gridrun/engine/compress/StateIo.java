package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** How compressors checkpoint a memory vector (a residual, a momentum): its length, then its float32 values. */
final class StateIo {
    private StateIo() {
    }

    /** Writes {@code values} with its length first. */
    static void writeFloats(DataOutput out, float[] values) throws IOException {
        out.writeInt(values.length);
        for (float v : values) {
            out.writeFloat(v);
        }
    }

    /** Reads what {@link #writeFloats} wrote; a negative length fails naming {@code what}. */
    static float[] readFloats(DataInput in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IllegalStateException("saved " + what + " length is negative: " + n);
        }
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = in.readFloat();
        }
        return values;
    }
}
