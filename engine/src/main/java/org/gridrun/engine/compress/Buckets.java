package org.gridrun.engine.compress;

/**
 * Where the buckets of a gradient of a given length begin: every {@code size} values over the whole vector, or, per
 * layer, restarting at every tensor boundary of a bound layout (the last bucket of each tensor may be short).
 *
 * <p>The boundaries are computed once per length and kept; {@link #start(int)} of bucket {@code count()} is the
 * length, so bucket {@code b} is {@code [start(b), start(b + 1))}.
 *
 * <p>With {@code ignoreSmall} (the seed's {@code nuq_ig_sm_bkts}) a bucket shorter than {@code size} is
 * {@link #raw raw}: sent as its float32 values instead of a norm and level indices, and left out of the statistics
 * the adaptive methods fit. The payload header then holds, per bucket in order, one float (the norm) or, for a raw
 * bucket, its values: {@link #header(int)} is where bucket {@code b}'s floats begin.
 */
final class Buckets {
    private final int size;
    private final boolean perLayer;
    private final boolean ignoreSmall;
    private TensorLayout layout;
    private int[] starts = {0};
    private int[] headers = {0};
    private int[] codesBefore = {0};
    private int quantized;
    private int length;

    Buckets(int size, boolean perLayer) {
        this(size, perLayer, false);
    }

    Buckets(int size, boolean perLayer, boolean ignoreSmall) {
        this.size = size;
        this.perLayer = perLayer;
        this.ignoreSmall = ignoreSmall;
    }

    /** Keeps the layout; per-layer buckets follow it for gradients of its size. */
    void bind(TensorLayout layout) {
        this.layout = layout;
        this.starts = new int[] {0};
        this.headers = new int[] {0};
        this.codesBefore = new int[] {0};
        this.quantized = 0;
        this.length = 0;
    }

    /** Lays out the buckets of a gradient of {@code length} values (no work when the length is unchanged). */
    Buckets forLength(int length) {
        if (length != this.length) {
            starts = perLayer && layout != null && layout.size() == length ? layered(length) : flat(length);
            this.length = length;
            headers = new int[starts.length];
            codesBefore = new int[starts.length];
            quantized = 0;
            for (int b = 0; b < count(); b++) {
                int values = start(b + 1) - start(b);
                headers[b + 1] = headers[b] + (raw(b) ? values : 1);
                quantized += raw(b) ? 0 : values;
                codesBefore[b + 1] = quantized;
            }
        }
        return this;
    }

    /** Whether bucket {@code b} is sent as raw float32 values: short, with {@code ignoreSmall}. */
    boolean raw(int b) {
        return ignoreSmall && starts[b + 1] - starts[b] < size;
    }

    /** The first float of bucket {@code b} in the payload header; {@code header(count())} is the header's length. */
    int header(int b) {
        return headers[b];
    }

    /** The number of values sent as level indices: all but those of raw buckets. */
    int quantizedValues() {
        return quantized;
    }

    /** The number of values sent as level indices before value {@code position} (raw buckets send none). */
    int codesBefore(int position) {
        if (position >= length) {
            return quantized;
        }
        int b = indexOf(position);
        return codesBefore[b] + (raw(b) ? 0 : position - starts[b]);
    }

    /** The number of buckets. */
    int count() {
        return starts.length - 1;
    }

    /** The first index of bucket {@code b}; {@code start(count())} is the length. */
    int start(int b) {
        return starts[b];
    }

    /** The bucket holding value {@code position}, in {@code [0, length)}. */
    int indexOf(int position) {
        int lo = 0;
        int hi = count();
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= position) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private int[] flat(int length) {
        int count = (int) ((length + (long) size - 1) / size);
        int[] s = new int[count + 1];
        for (int b = 0; b < count; b++) {
            s[b] = b * size;
        }
        s[count] = length;
        return s;
    }

    private int[] layered(int length) {
        int count = 0;
        for (TensorLayout.Tensor t : layout.tensors()) {
            count += (int) ((t.size() + (long) size - 1) / size);
        }
        int[] s = new int[count + 1];
        int b = 0;
        for (TensorLayout.Tensor t : layout.tensors()) {
            for (int i = 0; i < t.size(); i += size) {
                s[b++] = t.offset() + i;
            }
        }
        s[count] = length;
        return s;
    }
}
