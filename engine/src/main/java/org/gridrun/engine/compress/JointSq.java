package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * JointSQ: mixed 0/2/4/8-bit quantization with a per-tensor bit budget chosen by a greedy knapsack, and built-in
 * error feedback.
 *
 * <p>Each step quantizes {@code c = g + e}, where {@code e} is what earlier steps failed to send, and keeps
 * {@code e ← c − D(c)}. For every tensor of the bound layout (the whole vector if none is bound) of {@code n}
 * values, the value bits are at most {@code B = ceil(n·32·rate)}; {@link JointSqAllocator} gives each value 0, 2, 4
 * or 8 bits. A {@code w}-bit value is a sign bit (low bit, 1 negative) and {@code w − 1} magnitude bits: levels
 * {@code j·s/(2^(w−1) − 1)}, {@code j = 0 … 2^(w−1) − 1}, where {@code s} is the largest {@code |c|} among the
 * tensor's {@code w}-bit values (L∞ scale per bit group), rounded stochastically without bias. So 2-bit values are
 * {@code 0} or {@code ±s}, 4-bit values have 8 magnitude levels, 8-bit values 128.
 *
 * <p>Wire format, per tensor in layout order, packed least significant bit first with no padding: the width map,
 * 2 bits per value (0, 1, 2, 3 for 0, 2, 4, 8 bits); the three group scales as float32 (2-, 4-, 8-bit); then the
 * 2-bit codes of the tensor's 2-bit values in position order (four to a byte), the 4-bit codes (two to a byte) and
 * the 8-bit codes. A tensor costs {@code 2n + 96} bits of overhead on top of its value bits; the budget, as in the
 * paper, counts the value bits only. Payloads are gathered. State: the residual and the random stream's position.
 */
public final class JointSq extends RandomizedCompressor {
    /** The short name. */
    public static final String NAME = "jointsq";
    private static final int[] WIDTHS = {2, 4, 8};
    /** The width code of each width (0, 2, 4, 8 → 0, 1, 2, 3), indexed by the width. */
    private static final int[] CODE = {0, 0, 1, 0, 2, 0, 0, 0, 3};
    private static final byte[] WIDTH_OF_CODE = {0, 2, 4, 8};

    private final double rate;
    private final double sampleRatio;
    private final JointSqAllocator allocator;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private TensorLayout layout;
    private float[] residual = new float[0];
    private float[] corrected = new float[0];
    private byte[] widths = new byte[0];
    private final float[] scales = new float[3];
    /** Positions grouped by width code, and where each code's run starts ({@link #sortByWidth}). */
    private int[] order = new int[0];
    /** The positions of the tensor being written or read that have a nonzero width, in position order. */
    private int[] sending = new int[0];
    private final int[] starts = new int[5];
    private final int[] cursor = new int[4];
    /** The largest {@code |c|} of each width code in the tensor being written. */
    private final float[] maxima = new float[4];
    /** One chunk of the width map's 2-bit codes, packed or unpacked together. */
    private final int[] map = new int[Chunks.SIZE];

    JointSq(double rate, double sampleRatio, long seed, long stream) {
        super(seed, stream);
        this.rate = rate;
        this.sampleRatio = sampleRatio;
        this.allocator = new JointSqAllocator(sampleRatio, rng);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("rate", rate);
        config.put("sample_ratio", sampleRatio);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    @Override
    public void bind(TensorLayout layout) {
        this.layout = layout;
    }

    /** The value-bit budget of a tensor of {@code n} values: {@code ceil(n·32·rate)}. */
    public long budget(int n) {
        return (long) Math.ceil(n * 32.0 * rate);
    }

    private TensorLayout layoutFor(int length) {
        TensorLayout l = layout != null ? layout : TensorLayout.flat(length);
        if (l.size() != length) {
            throw new IllegalArgumentException("bound layout has " + l.size() + " values, the gradient " + length);
        }
        return l;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        if (residual.length != length) {
            residual = new float[length];
        }
        if (corrected.length != length) {
            corrected = new float[length];
            widths = new byte[length];
        }
        for (int i = 0; i < length; i++) {
            corrected[i] = gradient[offset + i] + residual[i];
        }
        TensorLayout l = layoutFor(length);
        long bits = 0;
        long side = 0;
        for (TensorLayout.Tensor t : l.tensors()) {
            int from = t.offset();
            int n = t.size();
            long valueBits = allocator.allocate(corrected, from, n, linf(from, n), budget(n), widths);
            bits += 2L * n + 96 + valueBits;
            side += 2L * n + 96;
        }
        Payload p = payload(bits, side, length);
        packer.reset(p.bytes(), 0);
        for (TensorLayout.Tensor t : l.tensors()) {
            writeTensor(t.offset(), t.size());
        }
        packer.flush();
        return p;
    }

    private float linf(int from, int n) {
        float max = 0;
        for (int i = from; i < from + n; i++) {
            max = Math.max(max, Math.abs(corrected[i]));
        }
        return max;
    }

    /**
     * Writes one tensor: the width map, the group scales, then each group's codes. The groups are walked through
     * {@link #sortByWidth}'s position lists, not by testing every value's width once per group (a branch the
     * processor cannot predict); the order of values, and so of random draws, is the same.
     */
    private void writeTensor(int from, int n) {
        Arrays.fill(maxima, 0f);
        int sent = 0;
        growLists(n);
        for (int start = from; start < from + n; start += Chunks.SIZE) {
            int count = Math.min(Chunks.SIZE, from + n - start);
            for (int j = 0; j < count; j++) {
                int i = start + j;
                int code = CODE[widths[i]];
                map[j] = code;
                maxima[code] = Math.max(maxima[code], Math.abs(corrected[i]));
                residual[i] = corrected[i];
                sending[sent] = i;
                sent += code == 0 ? 0 : 1;
            }
            packer.writeAll(map, count, 2);
        }
        for (int g = 0; g < 3; g++) {
            scales[g] = maxima[g + 1];
            packer.writeFloat(scales[g]);
        }
        sortByWidth(sent);
        for (int g = 0; g < 3; g++) {
            int w = WIDTHS[g];
            int top = (1 << (w - 1)) - 1;
            for (int k = starts[g + 1]; k < starts[g + 2]; k++) {
                int i = order[k];
                residual[i] = corrected[i] - quantize(corrected[i], scales[g], w, top);
            }
        }
    }

    /** Makes room for the position lists of a tensor of {@code n} values. */
    private void growLists(int n) {
        if (order.length < n) {
            order = new int[n];
            sending = new int[n];
        }
    }

    /**
     * Lists the {@code sent} positions of {@code sending} (those with a nonzero width, in position order) by width
     * code, each code's in position order: those of code {@code c} are {@code order[starts[c] … starts[c + 1])}.
     */
    private void sortByWidth(int sent) {
        Arrays.fill(starts, 0);
        for (int k = 0; k < sent; k++) {
            starts[CODE[widths[sending[k]]] + 1]++;
        }
        for (int c = 0; c < 4; c++) {
            starts[c + 1] += starts[c];
            cursor[c] = starts[c];
        }
        for (int k = 0; k < sent; k++) {
            int i = sending[k];
            order[cursor[CODE[widths[i]]]++] = i;
        }
    }

    /** Writes the code of {@code c} and returns its decoded value. */
    private float quantize(float c, float scale, int w, int top) {
        double x = Math.abs(c) / scale * top;
        int j = (int) Math.min(top, Math.floor(x + rng.nextFloat()));
        int sign = c < 0 ? 1 : 0;
        packer.write(sign | j << 1, w);
        return value(sign | j << 1, scale, top);
    }

    private static float value(int code, float scale, int top) {
        float magnitude = (code >>> 1) * scale / top;
        return (code & 1) == 1 ? -magnitude : magnitude;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (widths.length < length) {
            widths = new byte[length];
        }
        reader.reset(payload.bytes(), 0);
        for (TensorLayout.Tensor t : layoutFor(length).tensors()) {
            readTensor(out, offset, t.offset(), t.size());
        }
    }

    private void readTensor(float[] out, int offset, int from, int n) {
        int sent = 0;
        growLists(n);
        for (int start = from; start < from + n; start += Chunks.SIZE) {
            int count = Math.min(Chunks.SIZE, from + n - start);
            reader.readAll(map, count, 2);
            for (int j = 0; j < count; j++) {
                widths[start + j] = WIDTH_OF_CODE[map[j]];
                sending[sent] = start + j;
                sent += map[j] == 0 ? 0 : 1;
            }
        }
        Arrays.fill(out, offset + from, offset + from + n, 0f);
        for (int g = 0; g < 3; g++) {
            scales[g] = reader.readFloat();
        }
        sortByWidth(sent);
        for (int g = 0; g < 3; g++) {
            int w = WIDTHS[g];
            int top = (1 << (w - 1)) - 1;
            for (int k = starts[g + 1]; k < starts[g + 2]; k++) {
                out[offset + order[k]] = value(reader.read(w), scales[g], top);
            }
        }
    }

    /** The residual: what has been computed but not yet sent (a view; do not modify). */
    float[] residual() {
        return residual;
    }

    @Override
    public Compressor copy(long stream) {
        return new JointSq(rate, sampleRatio, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        residual = new float[0];
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        super.saveState(out);
        StateIo.writeFloats(out, residual);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        super.restoreState(in);
        residual = StateIo.readFloats(in, "residual");
    }

    /** Registers {@code jointsq} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("rate", ValueType.DOUBLE, 0.032,
                        "value bits per tensor as a fraction of float32: budget ceil(n·32·rate), in (0, 1]"),
                new ConfigKey("sample_ratio", ValueType.DOUBLE, 0.01,
                        "fraction of values sampled to estimate the knapsack's density threshold, in (0, 1]"));

        public Provider() {
            super(NAME, "JointSQ: 0/2/4/8 bits per value by a per-tensor greedy knapsack, L∞ groups, error feedback",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new JointSq(SparseFormat.fraction(params, "rate"), SparseFormat.fraction(params, "sample_ratio"),
                    seed, 0);
        }
    }
}
