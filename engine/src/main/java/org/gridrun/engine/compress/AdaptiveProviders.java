package org.gridrun.engine.compress;

import java.util.List;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;

/** The service providers of the six {@link AdaptiveQuantizer} methods, one small class per registered name. */
public final class AdaptiveProviders {
    private AdaptiveProviders() {
    }

    /** What the six providers share; each subclass names its method. */
    abstract static class Base implements CompressorProvider {
        private final AdaptiveMethod method;

        Base(AdaptiveMethod method) {
            this.method = method;
        }

        @Override
        public String name() {
            return method.methodName();
        }

        @Override
        public String summary() {
            return "bucketed L2 norm, unbiased stochastic rounding to 2^bits levels re-fitted at osnap_iter ("
                    + (method.normBased() ? "norm-based mixture" : "norm-less density") + ")";
        }

        @Override
        public Aggregation aggregation() {
            return Aggregation.ALL_GATHER;
        }

        @Override
        public List<ConfigKey> parameters() {
            return method.parameters();
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new AdaptiveQuantizer(method, method.params(params), seed, 0);
        }
    }

    /** {@code alq}: coordinate descent on a norm-less density. */
    public static final class Alq extends Base {
        public Alq() {
            super(AdaptiveMethod.ALQ);
        }
    }

    /** {@code alq_nb}: coordinate descent on a norm-based mixture. */
    public static final class AlqNb extends Base {
        public AlqNb() {
            super(AdaptiveMethod.ALQ_NB);
        }
    }

    /** {@code alqg}: projected gradient on a norm-less density. */
    public static final class Alqg extends Base {
        public Alqg() {
            super(AdaptiveMethod.ALQG);
        }
    }

    /** {@code alqg_nb}: projected gradient on a norm-based mixture. */
    public static final class AlqgNb extends Base {
        public AlqgNb() {
            super(AdaptiveMethod.ALQG_NB);
        }
    }

    /** {@code amq}: exponential levels ±p^j, p fitted to a norm-less density. */
    public static final class Amq extends Base {
        public Amq() {
            super(AdaptiveMethod.AMQ);
        }
    }

    /** {@code amq_nb}: exponential levels ±p^j, p fitted to a norm-based mixture. */
    public static final class AmqNb extends Base {
        public AmqNb() {
            super(AdaptiveMethod.AMQ_NB);
        }
    }
}
