package org.gridrun.engine.compress;

import org.gridrun.engine.config.Settings;

/** The service providers of the six {@link AdaptiveQuantizer} methods, one small class per registered name. */
public final class AdaptiveProviders {
    private AdaptiveProviders() {
    }

    /** What the six providers share; each subclass names its method. */
    abstract static class Base extends MethodProvider {
        private final AdaptiveMethod method;

        Base(AdaptiveMethod method) {
            super(method.methodName(), "bucketed L2 norm, unbiased stochastic rounding to 2^bits levels re-fitted at "
                    + "osnap_iter (" + (method.normBased() ? "norm-based mixture" : "norm-less density") + ")",
                    Aggregation.ALL_GATHER, method.parameters());
            this.method = method;
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
