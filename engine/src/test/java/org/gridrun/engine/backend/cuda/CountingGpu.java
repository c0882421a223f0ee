package org.gridrun.engine.backend.cuda;

/**
 * A {@link Gpu} that counts what the backend asks of the device it wraps: allocations, frees, the bytes crossing
 * each way, synchronisations and launches (graph launches are the device's own and not counted here).
 */
final class CountingGpu implements Gpu {
    private final Gpu device;
    long allocations;
    long frees;
    long uploads;
    long uploadedBytes;
    long downloads;
    long downloadedBytes;
    long synchronizations;
    long launches;

    CountingGpu(Gpu device) {
        this.device = device;
    }

    /** The counts as a line, for a failure's message. */
    String counts() {
        return "allocations " + allocations + ", frees " + frees + ", uploads " + uploads + " (" + uploadedBytes
                + " bytes), downloads " + downloads + " (" + downloadedBytes + " bytes), synchronizations "
                + synchronizations + ", launches " + launches;
    }

    /** The counts, to subtract from a later {@link #snapshot()}. */
    long[] snapshot() {
        return new long[] {allocations, frees, uploads, uploadedBytes, downloads, downloadedBytes, synchronizations,
            launches};
    }

    @Override
    public String describe() {
        return device.describe();
    }

    @Override
    public long allocate(long bytes) {
        allocations++;
        return device.allocate(bytes);
    }

    @Override
    public void free(long address) {
        frees++;
        device.free(address);
    }

    @Override
    public void upload(float[] src, int srcOffset, long dst, int count) {
        uploads++;
        uploadedBytes += 4L * count;
        device.upload(src, srcOffset, dst, count);
    }

    @Override
    public void download(long src, float[] dst, int dstOffset, int count) {
        downloads++;
        downloadedBytes += 4L * count;
        device.download(src, dst, dstOffset, count);
    }

    @Override
    public void uploadBytes(byte[] src, long dst, int count) {
        uploads++;
        uploadedBytes += count;
        device.uploadBytes(src, dst, count);
    }

    @Override
    public void downloadBytes(long src, byte[] dst, int count) {
        downloads++;
        downloadedBytes += count;
        device.downloadBytes(src, dst, count);
    }

    @Override
    public void copy(long src, long dst, long bytes) {
        device.copy(src, dst, bytes);
    }

    @Override
    public void fill32(long dst, int value, long count) {
        device.fill32(dst, value, count);
    }

    @Override
    public void launch(String kernel, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            KernelArgs args) {
        launches++;
        device.launch(kernel, gridX, gridY, gridZ, blockX, blockY, blockZ, args);
    }

    @Override
    public DeviceGraph newGraph() {
        return device.newGraph();
    }

    @Override
    public void synchronize() {
        synchronizations++;
        device.synchronize();
    }

    @Override
    public void close() {
        device.close();
    }
}
