package org.gridrun.engine.compress;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 */
public final class Mcgq extends RandomizedCompressor {
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

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        double norm = 0;
        for (int i = 0; i < length; i++) {
            norm += Math.abs(gradient[offset + i]);
        }
        int d = norm > 0 && Double.isFinite(norm) ? sample(gradient, offset, length, norm) : 0;
        long side = 32L + countWidth(length) + (long) d * SparseFormat.indexWidth(length);
        Payload p = payload(payloadBits(length, d), side, length);
        packer.reset(p.bytes(), 0);
        packer.writeFloat((float) norm);
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

    /** Draws {@code s} positions; fills {@code found} and {@code counts} and returns how many distinct ones. */
    private int sample(float[] g, int offset, int n, double norm) {
        int s = draws(n);
        if (draws.length < s) {
            draws = new double[s];
        }
        if (found.length < Math.min(s, n)) {
            found = new int[Math.min(s, n)];
            counts = new int[Math.min(s, n)];
        }
        if (independent) {
            for (int j = 0; j < s; j++) {
                draws[j] = rng.nextDouble() * norm;
            }
            Arrays.sort(draws, 0, s);
        } else {
            double r = rng.nextDouble();
            for (int j = 0; j < s; j++) {
                draws[j] = (j + r) * norm / s;
            }
        }
        int d = 0;
        int j = 0;
        double running = 0;
        for (int i = 0; i < n && j < s; i++) {
            running += Math.abs(g[offset + i]);
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
