package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.JointSqFormat;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.random.CounterRng;

/**
 * JointSQ: mixed 0/2/4/8-bit quantization within a per-tensor value-bit budget, L∞ scales per width group, an
 * entropy-coded width map, and built-in error feedback.
 *
 * <p>Each step quantizes {@code c = g + e}, where {@code e} is what earlier steps failed to send, and keeps
 * {@code e ← c − D(c)}. For every tensor of the bound layout (the whole vector if none is bound) of {@code n}
 * values, the value bits are at most {@code B = ceil(n·32·rate)}. {@code allocation: search} (the default,
 * {@link JointSqSearch}) gives the widths 0, 2, 4, 8 to magnitude classes chosen for the lowest expected error within
 * {@code B}, counting every value bit as sent; {@code allocation: knapsack} ({@link JointSqAllocator}) is the paper's
 * greedy knapsack, which counts a 2-bit value as 2 bits as the paper does, although it is sent in 7/3.
 *
 * <p>Levels, scaled by {@code s}, the largest {@code |c|} among the tensor's values of that width, every value rounded
 * stochastically between its two neighbouring levels, without bias:
 * <ul>
 *   <li>2 bits: the five levels {@code 0, ±s/2, ±s} (the authors' {@code n = 2}), three values packed in 7 bits
 *       ({@code d0 + 5·d1 + 25·d2}, {@code d = level + 2}), a last one or two in 3 or 5 bits: {@code log2 5 ≈ 2.32}
 *       bits a value where a sign and magnitude in 2 bits would spend a code on −0 and hold only three levels;</li>
 *   <li>4 and 8 bits: all {@code 2^w} codes, the symmetric levels {@code (2j − L)/L · s}, {@code j = 0 … L},
 *       {@code L = 2^w − 1}, with no zero (every such value is large in its tensor).</li>
 * </ul>
 *
 * <p>Wire format, per tensor in layout order, packed least significant bit first with no padding: the width map
 * (widths 0, 2, 4, 8 as symbols 0 … 3, {@link WidthMap}: order-1 range-ANS coded, or 2 bits a value when that is
 * shorter); the scale of each width group that has values, as float32 (2-, 4-, 8-bit order); then the 2-bit group's
 * packed codes in position order, the 4-bit codes ({@code j}) and the 8-bit codes. The map and the scales are the
 * side bits; the value bits are exactly {@link #packedBits packedBits(K2)}{@code  + 4·K4 + 8·K8}, which the budget
 * bounds with {@code search}. Payloads are gathered. State: the residual and the random stream's position.
 *
 * <p>An encode of {@code n} values takes {@code ceil(n/2)} draws of the stream, value {@code i} rounding with the
 * uniform of its position ({@link #uniform}), whatever the widths; the knapsack's sample positions are drawn after
 * them. With {@code allocation: search} the encode also runs on a device ({@link #planDeviceEncode},
 * {@link JointSqFormat}), the residual kept in the worker's slot.
 */
public final class JointSq extends RandomizedCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "jointsq";
    /** The {@code allocation} choices. */
    static final List<String> ALLOCATIONS = List.of("search", "knapsack");
    private static final int[] WIDTHS = {2, 4, 8};
    /** The symbol of each width (0, 2, 4, 8 → 0, 1, 2, 3), indexed by the width. */
    private static final byte[] SYMBOL = {0, 0, 1, 0, 2, 0, 0, 0, 3};
    /** The bits of one to three packed 2-bit values. */
    private static final int[] PACKED = {0, 3, 5, 7};

    private final double rate;
    private final double sampleRatio;
    private final boolean knapsack;
    private final JointSqAllocator allocator;
    private final JointSqSearch search = new JointSqSearch();
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private TensorLayout layout;
    private WidthMap[] maps = new WidthMap[0];
    private final ResidualMemory residual = new ResidualMemory();
    /** The last device format made, kept while the length and layout stay. */
    private JointSqFormat deviceFormat;
    private float[] corrected = new float[0];
    private byte[] widths = new byte[0];
    private byte[] symbols = new byte[0];
    private final float[] scales = new float[3];
    /** Positions grouped by symbol, and where each symbol's run starts ({@link #sortBySymbol}). */
    private int[] order = new int[0];
    /** The positions of the tensor being written or read that have a nonzero width, in position order. */
    private int[] sending = new int[0];
    private final int[] starts = new int[5];
    private final int[] cursor = new int[4];
    /** Values of each width in the last payload, for {@link #diagnostics()}. */
    private final long[] shares = new long[4];
    /** The tensor being written: its values of each symbol, and the largest magnitude of each. */
    private final long[] counts = new long[4];
    private final float[] maxima = new float[4];

    JointSq(double rate, double sampleRatio, boolean knapsack, long seed, long stream) {
        super(seed, stream);
        this.rate = rate;
        this.sampleRatio = sampleRatio;
        this.knapsack = knapsack;
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
        config.put("allocation", knapsack ? "knapsack" : "search");
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

    /** The bits of {@code k} 2-bit values: 7 for every three, 3 or 5 for a last one or two. */
    static long packedBits(long k) {
        return 7 * (k / 3) + PACKED[(int) (k % 3)];
    }

    /** The most 2-bit values {@code bits} bits hold ({@link #packedBits}); 0 when {@code bits} is negative. */
    static long mostPacked(long bits) {
        if (bits < 0) {
            return 0;
        }
        long r = bits % 7;
        return 3 * (bits / 7) + (r >= 5 ? 2 : r >= 3 ? 1 : 0);
    }

    /** The share of values of each width (0, 2, 4, 8) in the last payload, as {@code width_share/<w>}. */
    @Override
    public Map<String, Double> diagnostics() {
        long n = shares[0] + shares[1] + shares[2] + shares[3];
        if (n == 0) {
            return Map.of();
        }
        Map<String, Double> d = new LinkedHashMap<>();
        d.put("width_share/0", (double) shares[0] / n);
        for (int g = 0; g < 3; g++) {
            d.put("width_share/" + WIDTHS[g], (double) shares[g + 1] / n);
        }
        return d;
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
        float[] residual = this.residual.current(length);
        grow(length);
        for (int i = 0; i < length; i++) {
            corrected[i] = gradient[offset + i] + residual[i];
        }
        long first = rng.counter();
        rng.seek(first + draws(length));
        List<TensorLayout.Tensor> tensors = layoutFor(length).tensors();
        if (maps.length < tensors.size()) {
            maps = Arrays.copyOf(maps, tensors.size());
        }
        Arrays.fill(shares, 0);
        long bits = 0;
        long side = 0;
        for (int t = 0; t < tensors.size(); t++) {
            int from = tensors.get(t).offset();
            int n = tensors.get(t).size();
            allocate(from, n);
            long[] k = count(from, n);
            if (maps[t] == null) {
                maps[t] = new WidthMap();
            }
            long tensorSide = maps[t].encode(symbols, from, n) + 32L * groups(k);
            side += tensorSide;
            bits += tensorSide + packedBits(k[1]) + 4 * k[2] + 8 * k[3];
        }
        Payload p = payload(bits, side, length);
        packer.reset(p.bytes(), 0);
        for (int t = 0; t < tensors.size(); t++) {
            maps[t].write(packer, symbols, tensors.get(t).offset());
            writeValues(tensors.get(t).offset(), tensors.get(t).size(), residual, first);
        }
        if (packer.position() != bits) {
            throw new IllegalStateException("jointsq wrote " + packer.position() + " bits, counted " + bits);
        }
        packer.flush();
        return p;
    }

    private void grow(int length) {
        if (corrected.length != length) {
            corrected = new float[length];
            widths = new byte[length];
            symbols = new byte[length];
        }
    }

    /** Gives the tensor's values their widths and symbols. */
    private void allocate(int from, int n) {
        float linf = 0;
        for (int i = from; i < from + n; i++) {
            linf = Math.max(linf, Math.abs(corrected[i]));
        }
        if (knapsack) {
            allocator.allocate(corrected, from, n, linf, budget(n), widths);
        } else {
            search.allocate(corrected, from, n, linf, budget(n), widths);
        }
        for (int i = from; i < from + n; i++) {
            symbols[i] = SYMBOL[widths[i]];
        }
    }

    /** The number of values of each symbol in the tensor, also added to {@link #shares}. */
    private long[] count(int from, int n) {
        long[] k = counts;
        Arrays.fill(k, 0);
        for (int i = from; i < from + n; i++) {
            k[symbols[i]]++;
        }
        for (int s = 0; s < 4; s++) {
            shares[s] += k[s];
        }
        return k;
    }

    private static int groups(long[] k) {
        return (k[1] > 0 ? 1 : 0) + (k[2] > 0 ? 1 : 0) + (k[3] > 0 ? 1 : 0);
    }

    /**
     * Writes one tensor's scales and codes after its map. The groups are walked through {@link #sortBySymbol}'s
     * position lists, not by testing every value's width once per group (a branch the processor cannot predict);
     * the order of values, and so of random draws, is position order within each group.
     */
    private void writeValues(int from, int n, float[] residual, long first) {
        Arrays.fill(maxima, 0f);
        int sent = 0;
        growLists(n);
        for (int i = from; i < from + n; i++) {
            int s = symbols[i];
            maxima[s] = Math.max(maxima[s], Math.abs(corrected[i]));
            residual[i] = corrected[i];
            sending[sent] = i;
            sent += s == 0 ? 0 : 1;
        }
        sortBySymbol(sent);
        for (int g = 0; g < 3; g++) {
            scales[g] = maxima[g + 1];
            if (starts[g + 2] > starts[g + 1]) {
                packer.writeFloat(scales[g]);
            }
        }
        writeTwoBit(starts[1], starts[2], residual, first);
        for (int g = 1; g < 3; g++) {
            int top = (1 << WIDTHS[g]) - 1;
            float inverse = scales[g] > 0 ? 1f / scales[g] : 0f;
            for (int k = starts[g + 1]; k < starts[g + 2]; k++) {
                int i = order[k];
                double t = (corrected[i] * inverse * top + top) * 0.5;
                int j = (int) Math.max(0, Math.min(top, Math.floor(t + uniform(first, i))));
                packer.write(j, WIDTHS[g]);
                residual[i] = corrected[i] - symmetric(j, scales[g], top);
            }
        }
    }

    /** The draws an encode of {@code length} values takes: one 64-bit draw for every two values. */
    static long draws(int length) {
        return (length + 1L) / 2;
    }

    /**
     * Value {@code i}'s uniform in [0, 1) of the encode whose draws start at {@code first}: the top 24 bits of the high
     * half of draw {@code first + i/2} for even {@code i}, of the low half for odd, so that a value's draw depends on
     * its position alone and a device rounds every value at once ({@link JointSqFormat}).
     */
    private float uniform(long first, int i) {
        long draw = rng.at(first + (i >>> 1));
        int half = (int) ((i & 1) == 0 ? draw >>> 32 : draw);
        return (half >>> 8) * 0x1p-24f;
    }

    /** Writes the 2-bit group, listed at {@code order[first … end)}, three values per 7 bits. */
    private void writeTwoBit(int begin, int end, float[] residual, long first) {
        float scale = scales[0];
        float inverse = scale > 0 ? 2f / scale : 0f;
        int code = 0;
        int digits = 0;
        int weight = 1;
        for (int k = begin; k < end; k++) {
            int i = order[k];
            int d = (int) Math.max(0, Math.min(4, Math.floor(corrected[i] * inverse + 2 + uniform(first, i))));
            residual[i] = corrected[i] - fiveLevel(d, scale);
            code += d * weight;
            weight *= 5;
            if (++digits == 3) {
                packer.write(code, 7);
                code = 0;
                digits = 0;
                weight = 1;
            }
        }
        if (digits > 0) {
            packer.write(code, PACKED[digits]);
        }
    }

    /** The value of 2-bit digit {@code d} (0 … 4): {@code (d − 2)·s/2}. */
    private static float fiveLevel(int d, float scale) {
        return (d - 2) * scale * 0.5f;
    }

    /** The value of level {@code j} of {@code top + 1} symmetric levels: {@code (2j − top)/top · s}. */
    private static float symmetric(int j, float scale, int top) {
        return (2 * j - top) * scale / top;
    }

    /** Makes room for the position lists of a tensor of {@code n} values. */
    private void growLists(int n) {
        if (order.length < n) {
            order = new int[n];
            sending = new int[n];
        }
    }

    /**
     * Lists the {@code sent} positions of {@code sending} (those with a nonzero symbol, in position order) by symbol,
     * each symbol's in position order: those of symbol {@code s} are {@code order[starts[s] … starts[s + 1])}.
     */
    private void sortBySymbol(int sent) {
        Arrays.fill(starts, 0);
        for (int k = 0; k < sent; k++) {
            starts[symbols[sending[k]] + 1]++;
        }
        for (int c = 0; c < 4; c++) {
            starts[c + 1] += starts[c];
            cursor[c] = starts[c];
        }
        for (int k = 0; k < sent; k++) {
            int i = sending[k];
            order[cursor[symbols[i]]++] = i;
        }
    }

    /**
     * {@inheritDoc} The same draws as {@link #encode} (the knapsack's sample positions drawn here, for every tensor),
     * the residual kept in the worker's slot ({@link #keptInSlot}).
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        JointSqFormat format = deviceFormat(length);
        long first = rng.counter();
        rng.seek(first + draws(length));
        if (knapsack) {
            int tensors = format.tensors();
            int[] starts = new int[tensors + 1];
            for (int t = 0; t < tensors; t++) {
                starts[t + 1] = starts[t] + JointSqAllocator.sampleSize(sampleRatio,
                        format.offsets()[t + 1] - format.offsets()[t]);
            }
            int[] positions = new int[starts[tensors]];
            for (int t = 0; t < tensors; t++) {
                int[] drawn = allocator.samplePositions(format.offsets()[t + 1] - format.offsets()[t]);
                System.arraycopy(drawn, 0, positions, starts[t], starts[t + 1] - starts[t]);
            }
            format = format.withSample(starts, positions);
        }
        long least = 8L * format.payloadBytes();
        return Optional.of(new DevicePlan(format, CounterRng.keyOf(rng.seed(), rng.stream()), first, least, least));
    }

    private JointSqFormat deviceFormat(int length) {
        List<TensorLayout.Tensor> tensors = layoutFor(length).tensors();
        if (deviceFormat == null || deviceFormat.length() != length || deviceFormat.tensors() != tensors.size()
                || !matches(deviceFormat, tensors)) {
            int[] offsets = new int[tensors.size() + 1];
            long[] budgets = new long[tensors.size()];
            for (int t = 0; t < tensors.size(); t++) {
                offsets[t] = tensors.get(t).offset();
                budgets[t] = budget(tensors.get(t).size());
            }
            offsets[tensors.size()] = length;
            deviceFormat = JointSqFormat.search(length, offsets, budgets);
        }
        return deviceFormat;
    }

    private static boolean matches(JointSqFormat format, List<TensorLayout.Tensor> tensors) {
        for (int t = 0; t < tensors.size(); t++) {
            if (format.offsets()[t] != tensors.get(t).offset()) {
                return false;
            }
        }
        return true;
    }

    /** {@inheritDoc} Counts the widths of {@link #diagnostics} from the payload's maps. */
    @Override
    public void sawDevicePayload(Payload payload) {
        int length = payload.elements();
        if (symbols.length < length) {
            symbols = new byte[length];
        }
        Arrays.fill(shares, 0);
        reader.reset(payload.bytes(), 0);
        for (TensorLayout.Tensor t : layoutFor(length).tensors()) {
            readingMap().read(reader, symbols, t.offset(), t.size());
            long[] k = count(t.offset(), t.size());
            long values = 32L * groups(k) + packedBits(k[1]) + 4 * k[2] + 8 * k[3];
            reader.reset(payload.bytes(), reader.position() + values);
        }
    }

    /** {@inheritDoc} The residual {@code e}. */
    @Override
    public List<ResidualMemory> keptInSlot() {
        return List.of(residual);
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (symbols.length < length) {
            symbols = new byte[length];
        }
        reader.reset(payload.bytes(), 0);
        for (TensorLayout.Tensor t : layoutFor(length).tensors()) {
            readingMap().read(reader, symbols, t.offset(), t.size());
            readValues(out, offset, t.offset(), t.size());
        }
    }

    /** The map a payload's maps are read with (one, reused for every tensor). */
    private WidthMap readingMap() {
        if (maps.length == 0) {
            maps = new WidthMap[] {new WidthMap()};
        }
        return maps[0];
    }

    private void readValues(float[] out, int offset, int from, int n) {
        int sent = 0;
        growLists(n);
        for (int i = from; i < from + n; i++) {
            sending[sent] = i;
            sent += symbols[i] == 0 ? 0 : 1;
        }
        Arrays.fill(out, offset + from, offset + from + n, 0f);
        sortBySymbol(sent);
        for (int g = 0; g < 3; g++) {
            scales[g] = starts[g + 2] > starts[g + 1] ? reader.readFloat() : 0f;
        }
        int left = starts[2] - starts[1];
        for (int k = starts[1]; k < starts[2]; k += 3, left -= 3) {
            int digits = Math.min(3, left);
            int code = reader.read(PACKED[digits]);
            for (int d = 0; d < digits; d++) {
                out[offset + order[k + d]] = fiveLevel(code % 5, scales[0]);
                code /= 5;
            }
        }
        for (int g = 1; g < 3; g++) {
            int top = (1 << WIDTHS[g]) - 1;
            for (int k = starts[g + 1]; k < starts[g + 2]; k++) {
                out[offset + order[k]] = symmetric(reader.read(WIDTHS[g]), scales[g], top);
            }
        }
    }

    /** The residual: what has been computed but not yet sent (a view; do not modify). */
    float[] residual() {
        return residual.current();
    }

    @Override
    public Compressor copy(long stream) {
        return new JointSq(rate, sampleRatio, knapsack, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        residual.replace(new float[0]);
        Arrays.fill(shares, 0);
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        super.saveState(out);
        StateIo.writeFloats(out, residual.current());
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        super.restoreState(in);
        residual.replace(StateIo.readFloats(in, "residual"));
    }

    /** Registers {@code jointsq} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("rate", ValueType.DOUBLE, 0.032,
                        "value bits per tensor as a fraction of float32: budget ceil(n·32·rate), in (0, 1]"),
                new ConfigKey("allocation", ValueType.STRING, "search",
                        "search (the widths' magnitude classes with the lowest expected error within the budget, "
                                + "every value bit counted) or knapsack (the paper's greedy, 2-bit values counted as "
                                + "2 bits)"),
                new ConfigKey("sample_ratio", ValueType.DOUBLE, 0.01,
                        "fraction of values sampled to estimate the knapsack's density threshold, in (0, 1]"));

        public Provider() {
            super(NAME, "JointSQ: 0/2/4/8 bits per value within a per-tensor budget, L∞ groups, entropy-coded "
                    + "width map, error feedback", Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            boolean knapsack = params.oneOf("allocation", ALLOCATIONS).equals("knapsack");
            return new JointSq(SparseFormat.fraction(params, "rate"), SparseFormat.fraction(params, "sample_ratio"),
                    knapsack, seed, 0);
        }
    }
}
