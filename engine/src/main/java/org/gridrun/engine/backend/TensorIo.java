package org.gridrun.engine.backend;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Writes a tensor's values to a stream and reads them back bit for bit, for checkpoints.
 *
 * <p>The format is the element count as an int, then every value as a big-endian float32 in row-major order. The
 * copy goes through the host, so it allocates: it is meant for checkpoints, not the training loop.
 */
public final class TensorIo {
    private TensorIo() {
    }

    /** Writes the values of {@code tensor}, downloaded through {@code backend}: {@code 4 + 4·size} bytes. */
    public static void write(Backend backend, Tensor tensor, DataOutput out) throws IOException {
        float[] host = new float[tensor.size()];
        backend.download(tensor, host, 0);
        ByteBuffer bytes = ByteBuffer.allocate(4 * host.length);
        bytes.asFloatBuffer().put(host);
        out.writeInt(host.length);
        out.write(bytes.array());
    }

    /**
     * Reads what {@link #write} wrote into {@code tensor}, uploaded through {@code backend}.
     *
     * <p>Fails with an {@link IllegalStateException} naming {@code what} when the saved values do not fit it.
     */
    public static void read(Backend backend, Tensor tensor, DataInput in, String what) throws IOException {
        int count = in.readInt();
        if (count != tensor.size()) {
            throw new IllegalStateException("saved " + what + " has " + count + " values; this one has "
                    + tensor.size());
        }
        byte[] bytes = new byte[4 * count];
        in.readFully(bytes);
        float[] host = new float[count];
        ByteBuffer.wrap(bytes).asFloatBuffer().get(host);
        backend.upload(host, 0, tensor);
    }
}
