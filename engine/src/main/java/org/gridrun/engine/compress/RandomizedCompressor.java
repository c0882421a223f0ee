package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.gridrun.engine.random.CounterRng;

/**
 * A built-in compressor that draws random numbers from its own counter-based stream {@code (seed, stream)}: the
 * stream's position is its state, rewound by {@link #reset()} and carried by {@link #saveState}/{@link #restoreState}.
 * Subclasses with more state override those three, calling these first.
 */
abstract class RandomizedCompressor extends BaseCompressor {
    /** This instance's random stream. */
    protected final CounterRng rng;

    RandomizedCompressor(long seed, long stream) {
        super(seed, stream);
        this.rng = new CounterRng(seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        rng.seek(0);
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        rng.saveState(out);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        rng.restoreState(in);
    }
}
