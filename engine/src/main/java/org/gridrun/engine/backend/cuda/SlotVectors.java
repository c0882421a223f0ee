package org.gridrun.engine.backend.cuda;

/**
 * The vectors a method keeps in one slot (a worker) between steps: DGC's momentum and accumulator, JointSQ's residual.
 * They are zero when first made and whenever the length changes, as the host's encode starts them.
 */
final class SlotVectors {
    private final Gpu gpu;
    private final Upload[] vectors;
    private int length = -1;

    SlotVectors(Gpu gpu, int count) {
        this.gpu = gpu;
        this.vectors = new Upload[count];
        for (int i = 0; i < count; i++) {
            vectors[i] = new Upload(gpu);
        }
    }

    /** These vectors for {@code n} values: zeros where they held another length. */
    SlotVectors of(int n) {
        if (n != length) {
            for (Upload u : vectors) {
                gpu.fill32(u.reserve(4L * Math.max(1, n)), 0, Math.max(1, n));
            }
            length = n;
        }
        return this;
    }

    /** The address of vector {@code vector}. */
    long address(int vector) {
        return vectors[vector].address();
    }

    /** Uploads {@code values} (as many as the length) into vector {@code vector}. */
    void upload(int vector, float[] values) {
        gpu.upload(values, 0, address(vector), length);
    }

    /** Downloads vector {@code vector} into {@code into}. */
    void download(int vector, float[] into) {
        gpu.download(address(vector), into, 0, length);
    }

    void free() {
        for (Upload u : vectors) {
            u.free();
        }
        length = -1;
    }
}
