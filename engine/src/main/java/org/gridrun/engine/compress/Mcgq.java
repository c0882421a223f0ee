package org.gridrun.engine.compress;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.McgqFormat;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * Monte-Carlo gradient quantization: {@code s} positions drawn with probability proportional to {@code |g_i|}, each
 * draw standing for {@code sign(g_i)·‖g‖₁/s}; unbiased.
 *
 * <p>With {@code p_i = |g_i|/‖g‖₁}, one draw's estimate {@code sign(g_i)·‖g‖₁·e_i} has expectation
 * {@code Σ p_i·sign(g_i)·‖g‖₁·e_i = g}, so the mean of {@code s} draws is unbiased. {@code s} is {@code samples} when
 * positive, else {@code max(1, ceil(ratio·n))}. The draws are points on {@code [0, ‖g‖₁)} swept once over the running
 * sum of {@code |g|}:
 * <ul>
 *   <li>{@code sampling: systematic} (the default, as the authors' {@code monte_carlo_gradient_quantization} in
 *       JointSQ's {@code hooks_mcgq.py}): {@code (j + r)·‖g‖₁/s}, {@code j = 0 … s − 1}, one uniform {@code r}; each
 *       point is uniform, so the estimate stays unbiased, and value {@code i} is drawn {@code ⌊s·p_i⌋} or
 *       {@code ⌈s·p_i⌉} times, a variance of at most {@code ‖g‖₁²/(4s²)} per value; O(n + s);</li>
 *   <li>{@code sampling: independent}: {@code s} uniforms, sorted (draws with replacement, variance
 *       {@code (‖g‖₁·|g_i| − g_i²)/s} per value, which is larger); O(n + s log s).</li>
 * </ul>
 *
 * <p>Wire format, packed least significant bit first: {@code ‖g‖₁} as float32; the number {@code d} of distinct
 * drawn positions in {@code max(1, ceil(log2 (min(s, n) + 1)))} bits; then per distinct position, ascending, its
 * index in {@code max(1, ceil(log2 n))} bits, its sign in 1 bit (1 negative) and its draw count minus one in
 * {@code ceil(log2 s)} bits (none when {@code s = 1}). Total {@code 32 + countWidth + d·(indexWidth + 1 +
 * multiplicityWidth)} bits. A zero gradient sends {@code d = 0}; a non-finite norm decodes to NaN. Payloads are
 * gathered. State: the random stream's position (24 bytes).
 *
 * <p>The step's uniforms are drawn whatever the values, and the running sum of {@code |g|} is taken in chunks of
 * {@value #CHUNK} values ({@link #running}), so that the encode also runs on a device
 * ({@link #planDeviceEncode}, {@link McgqFormat}) with the same bits.
 */
public final class Mcgq extends RandomizedCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "mcgq";

    /** The {@code sampling} choices. */
    static final List<String> SAMPLINGS = List.of("systematic", "independent");

    private final double ratio;
    private final int samples;
    private final boolean independent;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private double[] draws = new double[0];
    private double[] runningSums = new double[0];
    private int[] found = new int[0];
    private int[] counts = new int[0];

    Mcgq(double ratio, int samples, boolean independent, long seed, long stream) {
        super(seed, stream);
        this.ratio = ratio;
        this.samples = samples;
        this.independent = independent;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ratio", ratio);
        config.put("samples", (long) samples);
        config.put("sampling", independent ? "independent" : "systematic");
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    /** The number of draws for a gradient of {@code n} values. */
    public int draws(int n) {
        return samples > 0 ? samples : (int) Math.max(1, Math.ceil(ratio * n));
    }

    private int countWidth(int n) {
        return SparseFormat.countWidth(Math.min(draws(n), n));
    }

    private int multiplicityWidth(int n) {
        int s = draws(n);
        return s <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(s - 1);
    }

    /** The exact payload size for {@code n} values of which {@code d} distinct positions were drawn. */
    public long payloadBits(int n, int d) {
        return 32L + countWidth(n) + (long) d * (SparseFormat.indexWidth(n) + 1 + multiplicityWidth(n));
    }

    /** The values of a chunk of the running sum of magnitudes (see {@link #running}). */
    static final int CHUNK = 8192;

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        double[] uniforms = drawUniforms(length);
        double norm = running(gradient, offset, length);
        int d = norm > 0 && Double.isFinite(norm) ? sample(gradient, offset, length, norm, uniforms) : 0;
        long side = 32L + countWidth(length) + (long) d * SparseFormat.indexWidth(length);
        Payload p = payload(payloadBits(length, d), side, length);
        packer.reset(p.bytes(), 0);
        float sent = (float) norm;
        packer.writeFloat(Float.isNaN(sent) ? Float.NaN : sent);
        packer.write(d, countWidth(length));
        int indexWidth = SparseFormat.indexWidth(length);
        int multiplicityWidth = multiplicityWidth(length);
        for (int j = 0; j < d; j++) {
            packer.write(found[j], indexWidth);
            packer.write(gradient[offset + found[j]] < 0 ? 1 : 0, 1);
            if (multiplicityWidth > 0) {
                packer.write(counts[j] - 1, multiplicityWidth);
            }
        }
        packer.flush();
        return p;
    }

    /** {@inheritDoc} The same draws as {@link #encode}, taken here whatever the values. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        double[] uniforms = drawUniforms(length);
        McgqFormat format = new McgqFormat(length, draws(length), independent, uniforms);
        return Optional.of(new DevicePlan(format, 0, 0, payloadBits(length, 0), 32L + countWidth(length)));
    }

    /**
     * The step's uniforms, drawn whatever the values (so that a device's plan draws the same): {@code s} of them,
     * ascending, for independent sampling, one for systematic.
     */
    double[] drawUniforms(int n) {
        int count = independent ? draws(n) : 1;
        double[] u = new double[count];
        for (int j = 0; j < count; j++) {
            u[j] = rng.nextDouble();
        }
        Arrays.sort(u);
        return u;
    }

    /**
     * The running sum of {@code |g|} ({@link #runningSums}) and returns {@code ‖g‖₁}: in chunks of {@value #CHUNK}
     * values, each chunk's sum sequential from zero, a chunk's values offset by the sum of the chunks before it (added
     * in order), so that a device sums every chunk at once and gets the same bits.
     */
    private double running(float[] g, int offset, int n) {
        if (runningSums.length < n) {
            runningSums = new double[n];
        }
        double before = 0;
        for (int from = 0; from < n; from += CHUNK) {
            int to = Math.min(n, from + CHUNK);
            double local = 0;
            for (int i = from; i < to; i++) {
                local += Math.abs(g[offset + i]);
                runningSums[i] = before + local;
            }
            before += local;
        }
        return before;
    }

    /**
     * Draws at the {@code s} points of the sampling (uniforms {@code u}), each value {@code i} taking the points below
     * its running sum and not below the one before; fills {@code found} and {@code counts} and returns how many
     * distinct positions were drawn.
     */
    private int sample(float[] g, int offset, int n, double norm, double[] u) {
        int s = draws(n);
        if (draws.length < s) {
            draws = new double[s];
        }
        if (found.length < Math.min(s, n)) {
            found = new int[Math.min(s, n)];
            counts = new int[Math.min(s, n)];
        }
        for (int j = 0; j < s; j++) {
            draws[j] = independent ? u[j] * norm : (j + u[0]) * norm / s;
        }
        int d = 0;
        int j = 0;
        for (int i = 0; i < n && j < s; i++) {
            double running = runningSums[i];
            int start = j;
            while (j < s && draws[j] < running) {
                j++;
            }
            if (j > start) {
                found[d] = i;
                counts[d++] = j - start;
            }
        }
        return d;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int n = payload.elements();
        checkRange(out, offset, n);
        reader.reset(payload.bytes(), 0);
        float norm = reader.readFloat();
        int d = reader.read(countWidth(n));
        if (d > n || payload.bits() != payloadBits(n, d)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + n + " values: " + payload);
        }
        Arrays.fill(out, offset, offset + n, Float.isFinite(norm) ? 0f : Float.NaN);
        double unit = (double) norm / draws(n);
        int indexWidth = SparseFormat.indexWidth(n);
        int multiplicityWidth = multiplicityWidth(n);
        for (int j = 0; j < d; j++) {
            int index = reader.read(indexWidth);
            boolean negative = reader.read(1) == 1;
            int count = 1 + (multiplicityWidth > 0 ? reader.read(multiplicityWidth) : 0);
            out[offset + index] = (float) ((negative ? -unit : unit) * count);
        }
    }

    @Override
    public Compressor copy(long stream) {
        return new Mcgq(ratio, samples, independent, seed, stream);
    }

    /** Registers {@code mcgq} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("ratio", ValueType.DOUBLE, 0.01,
                        "draws per value, in (0, 1]: ceil(ratio·n) draws when samples is 0"),
                new ConfigKey("samples", ValueType.INT, 0L,
                        "number of draws; 0 takes ceil(ratio·n)"),
                new ConfigKey("sampling", ValueType.STRING, "systematic",
                        "systematic (points (j + r)·‖g‖₁/s, one uniform r: the authors' code, lower variance) or "
                                + "independent (s uniforms: draws with replacement)"));

        public Provider() {
            super(NAME, "Monte-Carlo sampling of positions with probability |g_i|/‖g‖₁, unbiased, sign and count each",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            double ratio = SparseFormat.fraction(params, "ratio");
            long samples = params.longValue("samples");
            if (samples < 0 || samples > 1 << 28) {
                throw new ConfigException("samples must be in [0, " + (1 << 28) + "], found " + samples);
            }
            boolean independent = params.oneOf("sampling", SAMPLINGS).equals("independent");
            return new Mcgq(ratio, (int) samples, independent, seed, 0);
        }
    }
}
