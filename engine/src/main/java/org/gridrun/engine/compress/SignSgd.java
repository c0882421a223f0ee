package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.SignFormat;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * The sign methods: {@code signsgd} sends the sign of the gradient, {@code efsignsgd} the sign of the gradient plus
 * its residual (error feedback built in), {@code signum} the sign of a momentum buffer.
 *
 * <p>What is signed: {@code signsgd} takes {@code v = g}; {@code efsignsgd} takes {@code v = g + e} and keeps
 * {@code e ← v − D(C(v))}, so that the sum of everything sent plus the residual equals the sum of the gradients;
 * {@code signum} updates {@code m ← β·m + (1 − β)·g} ({@code β = signum_momentum}) and takes {@code v = m}.
 *
 * <p>Wire format: with {@code scaled} (the default, and always for {@code efsignsgd}) a little-endian float32
 * scale {@code s = ‖v‖₁/n} first, then one bit per value (1 for negative, 0 for zero or positive), least
 * significant bit first; a value decodes to {@code −s} or {@code +s}. Without {@code scaled} there is no scale and a
 * value decodes to ±1 (the papers' pure sign, whose step size is the learning rate's). A payload of {@code n} values
 * holds exactly {@code 32 + n} bits, or {@code n}.
 *
 * <p>Aggregation is all-gather: a scale is per worker. Majority vote (signSGD's server takes the sign of the sum of
 * the workers' signs) is not what the simulated collective computes: it averages the decoded ±1, giving the vote's
 * margin {@code (#positive − #negative)/K} per coordinate, whose sign is the majority vote and whose magnitude says
 * how clear it was. With {@code scaled}, the average weighs each worker's vote by its scale.
 *
 * <p>State: none for {@code signsgd}; the residual for {@code efsignsgd} and the momentum for {@code signum}, both
 * written by {@link #saveState} as a length and the float32 values. Random numbers are not used.
 */
public final class SignSgd extends BaseCompressor implements DeviceEncodable, ResidualFeedback {
    /** What the sign is taken of. */
    enum Variant {
        PLAIN("signsgd"), ERROR_FEEDBACK("efsignsgd"), MOMENTUM("signum");

        final String name;

        Variant(String name) {
            this.name = name;
        }
    }

    private final Variant variant;
    private final boolean scaled;
    private final double beta;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    /** The residual ({@code efsignsgd}) or the momentum ({@code signum}). */
    private final ResidualMemory memory = new ResidualMemory();
    private float[] signed = new float[0];

    SignSgd(Variant variant, boolean scaled, double beta, long seed, long stream) {
        super(seed, stream);
        this.variant = variant;
        this.scaled = scaled;
        this.beta = beta;
    }

    @Override
    public String name() {
        return variant.name;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        if (variant != Variant.ERROR_FEEDBACK) {
            config.put("scaled", scaled);
        }
        if (variant == Variant.MOMENTUM) {
            config.put("signum_momentum", beta);
        }
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    /** The exact payload size for {@code length} values: {@code 32 + length} when scaled, else {@code length}. */
    public long payloadBits(int length) {
        return (scaled ? 32L : 0L) + length;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        if (signed.length != length) {
            signed = new float[length];
        }
        float[] kept = variant == Variant.PLAIN ? null : memory.current(length);
        prepare(gradient, offset, length, kept);
        Payload p = payload(payloadBits(length), payloadBits(length) - length, length);
        packer.reset(p.bytes(), 0);
        float scale = scaled ? meanAbs(signed, length) : 1f;
        if (scaled) {
            packer.writeFloat(scale);
        }
        SignBits.write(packer, signed, 0, length);
        packer.flush();
        if (variant == Variant.ERROR_FEEDBACK) {
            SignBits.residual(signed, 0, length, -scale, scale, kept);
        }
        return p;
    }

    /**
     * {@inheritDoc} Every variant encodes on a device: {@code efsignsgd} the sign of {@code g + e} and
     * {@code signum} that of its momentum, the memory kept where the trainer keeps it ({@link ResidualFeedback}).
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        return Optional.of(new DevicePlan(new SignFormat(scaled, length), 0, 0, payloadBits(length),
                payloadBits(length) - length));
    }

    /** Fills {@code signed} with the vector whose sign is sent, with the residual or updating the momentum. */
    private void prepare(float[] g, int offset, int length, float[] kept) {
        switch (variant) {
            case PLAIN -> System.arraycopy(g, offset, signed, 0, length);
            case ERROR_FEEDBACK -> {
                for (int i = 0; i < length; i++) {
                    signed[i] = g[offset + i] + kept[i];
                }
            }
            case MOMENTUM -> {
                double rest = 1 - beta;
                for (int i = Vectors.signs() ? VectorSigns.momentum(g, offset, kept, length, beta) : 0; i < length;
                        i++) {
                    kept[i] = (float) (beta * kept[i] + rest * g[offset + i]);
                }
                System.arraycopy(kept, 0, signed, 0, length);
            }
        }
    }

    private static float meanAbs(float[] v, int length) {
        double sum = ChainSums.of(v, 0, length, ChainSums.Term.ABS);
        float scale = length == 0 ? 0f : (float) (sum / length);
        // which NaN a chain of additions carries is the processor's: the wire holds the canonical one
        return Float.isNaN(scale) ? Float.NaN : scale;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (payload.bits() != payloadBits(length)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        reader.reset(payload.bytes(), 0);
        float scale = scaled ? reader.readFloat() : 1f;
        SignBits.read(reader, out, offset, length, -scale, scale);
    }

    @Override
    public Compressor copy(long stream) {
        return new SignSgd(variant, scaled, beta, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        memory.replace(new float[0]);
    }

    /** {@code efsignsgd} keeps a residual, {@code signum} a momentum ({@link #momentum()}); {@code signsgd} nothing. */
    @Override
    public boolean keepsResidual() {
        return variant != Variant.PLAIN;
    }

    @Override
    public double momentum() {
        return variant == Variant.MOMENTUM ? beta : Double.NaN;
    }

    @Override
    public ResidualMemory residual() {
        return memory;
    }

    /** The residual ({@code efsignsgd}) or momentum ({@code signum}); a view, do not modify. */
    float[] memory() {
        return memory.current();
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        StateIo.writeFloats(out, memory.current());
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        float[] saved = StateIo.readFloats(in, name() + " memory");
        if (saved.length > 0 && variant == Variant.PLAIN) {
            throw new IllegalStateException(name() + " has no memory of " + saved.length + " values to restore");
        }
        memory.replace(saved);
    }

    private static final ConfigKey SCALED = new ConfigKey("scaled", ValueType.BOOL, true,
            "decode to ±mean|v| (a float32 scale per payload) instead of ±1");

    /** Registers {@code signsgd}. */
    public static final class Provider extends MethodProvider {
        public Provider() {
            super(Variant.PLAIN.name, "signSGD: 1 bit per value, decoded to ±mean|g| (or ±1 without scaled)",
                    Aggregation.ALL_GATHER, List.of(SCALED));
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new SignSgd(Variant.PLAIN, params.bool("scaled"), 0, seed, 0);
        }
    }

    /** Registers {@code efsignsgd}. */
    public static final class EfProvider extends MethodProvider {
        public EfProvider() {
            super(Variant.ERROR_FEEDBACK.name,
                    "EF-signSGD: sign of gradient plus residual, scaled by its mean |·|, residual kept: 32 + n bits",
                    Aggregation.ALL_GATHER, List.of());
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new SignSgd(Variant.ERROR_FEEDBACK, true, 0, seed, 0);
        }
    }

    /** Registers {@code signum}. */
    public static final class SignumProvider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(SCALED,
                new ConfigKey("signum_momentum", ValueType.DOUBLE, 0.9,
                        "β of the momentum m ← β·m + (1 − β)·g whose sign is sent, in [0, 1)"));

        public SignumProvider() {
            super(Variant.MOMENTUM.name,
                    "Signum: sign of a momentum buffer, 1 bit per value (+ a float32 scale when scaled)",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new SignSgd(Variant.MOMENTUM, params.bool("scaled"),
                    params.doubleInHalfOpen("signum_momentum", 0, 1), seed, 0);
        }
    }
}
