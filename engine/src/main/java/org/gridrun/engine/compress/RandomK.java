package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.SharedPositionsFormat;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.random.CounterRng;

/**
 * Random-k sparsification with a shared seed: every worker keeps the same {@code k = ceil(ratio·n)} random positions
 * in a step, so payloads can be summed.
 *
 * <p>The positions come from a stream shared by all workers ({@link #SHARED_STREAM} of the seed, whatever stream the
 * instance was copied with), which advances by exactly {@code k} draws per step (Floyd's sampling of {@code k}
 * distinct positions out of {@code n}); so in step {@code t} every worker draws the same set, and the set changes
 * from step to step. The positions are never sent: the payload is the {@code k} kept values, in ascending order of
 * position, each multiplied by {@code n/k} and written as float32: {@code 32·k} bits. Each position is kept with
 * probability {@code k/n}, so the decoded vector has expectation {@code g} (variance {@code g_i²·(n/k − 1)} per
 * value). Payloads of one step sum position by position, so the method all-reduces.
 *
 * <p>Decoding needs that step's positions: decode on the instance that encoded, as the contract says. Its state is
 * the shared stream's position, which {@link #saveState} writes (24 bytes).
 *
 * <p>On a device ({@link #planDeviceEncode}) the instance draws the step's positions as {@code encode} does, keeps
 * them to decode, and hands them in a {@link SharedPositionsFormat}; the device gathers and scales the values.
 */
public final class RandomK extends BaseCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "randomk";
    /** The random stream every worker's instance draws positions from. */
    public static final long SHARED_STREAM = -1;

    private final double ratio;
    private final CounterRng shared;
    /** The positions drawn in a step, one bit each; all clear between steps. */
    private long[] taken = new long[0];
    private int[] positions = new int[0];
    private int lastLength = -1;

    RandomK(double ratio, long seed, long stream) {
        super(seed, stream);
        this.ratio = ratio;
        this.shared = new CounterRng(seed, SHARED_STREAM);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ratio", ratio);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_REDUCE;
    }

    /** How many values a gradient of {@code n} keeps: {@code ceil(ratio·n)}, at most {@code n}. */
    public int kept(int n) {
        return (int) Math.min(n, (long) Math.ceil(ratio * n));
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        int k = kept(length);
        drawPositions(length, k);
        Payload p = payload(32L * k, 0, length);
        float scale = scale(length, k);
        for (int j = 0; j < k; j++) {
            // a NaN as the canonical one, which a GPU's product writes too
            LittleEndian.putInt(p.bytes(), 4 * j, Float.floatToIntBits(gradient[offset + positions[j]] * scale));
        }
        return p;
    }

    /** {@inheritDoc} The positions are drawn here, as {@link #encode} draws them, and travel in the format. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        int k = kept(length);
        long first = shared.counter();
        drawPositions(length, k);
        SharedPositionsFormat format = new SharedPositionsFormat(length, Arrays.copyOf(positions, k), scale(length, k));
        return Optional.of(new DevicePlan(format, CounterRng.keyOf(seed, SHARED_STREAM), first, 32L * k, 0));
    }

    /** The factor {@code n/k} kept values are multiplied by, so that the decoded vector is unbiased. */
    private static float scale(int n, int k) {
        return (float) ((double) n / k);
    }

    /**
     * Floyd's algorithm: {@code k} distinct positions of {@code [0, n)} in {@code k} draws, marked in a bit set (1.4 MB
     * for 11 M values, where a boolean a value took 11 MB and missed the cache at every draw), then read out of it in
     * ascending order, which clears it: no sort.
     */
    private void drawPositions(int n, int k) {
        int words = (n + 63) >>> 6;
        if (taken.length < words) {
            taken = new long[words];
        }
        if (positions.length < k) {
            positions = new int[k];
        }
        for (int j = n - k; j < n; j++) {
            int t = shared.nextInt(j + 1);
            int chosen = (taken[t >>> 6] & 1L << t) != 0 ? j : t;
            taken[chosen >>> 6] |= 1L << chosen;
        }
        int count = 0;
        for (int w = 0; w < words; w++) {
            long bits = taken[w];
            if (bits != 0) {
                taken[w] = 0;
                do {
                    positions[count++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                } while (bits != 0);
            }
        }
        lastLength = n;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int n = payload.elements();
        checkRange(out, offset, n);
        int k = kept(n);
        if (n != lastLength || payload.bits() != 32L * k) {
            throw new IllegalArgumentException("not a payload of this " + this + " instance's last encode: "
                    + payload);
        }
        Arrays.fill(out, offset, offset + n, 0f);
        for (int j = 0; j < k; j++) {
            out[offset + positions[j]] = LittleEndian.getFloat(payload.bytes(), 4 * j);
        }
    }

    @Override
    public Compressor copy(long stream) {
        return new RandomK(ratio, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        shared.seek(0);
        lastLength = -1;
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        shared.saveState(out);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        shared.restoreState(in);
        lastLength = -1;
    }

    /** Registers {@code randomk} and declares its parameter. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("ratio", ValueType.DOUBLE, 0.01,
                        "fraction of values kept, in (0, 1]: ceil(ratio·n) positions shared by all workers"));

        public Provider() {
            super(NAME, "k random positions shared by all workers, values scaled by n/k (unbiased), no indices sent",
                    Aggregation.ALL_REDUCE, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new RandomK(SparseFormat.fraction(params, "ratio"), seed, 0);
        }
    }
}
