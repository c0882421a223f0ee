package org.gridrun.engine.optim;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.compress.TensorLayout;

/**
 * Which parts of a flat parameter vector weight decay applies to: contiguous runs, in order and without gaps.
 *
 * <p>Built once per optimizer; adjacent tensors that agree share one run, so an optimizer makes one backend call per
 * run. {@link #excludingVectors} leaves every tensor of rank 1 undecayed: in gridrun's models those are exactly the
 * biases and the batch-norm scales and shifts.
 *
 * @param segments the runs, in order, covering the vector
 */
public record DecaySegments(List<Segment> segments) {
    /** {@code size} values starting at {@code offset}, decayed or not. */
    public record Segment(int offset, int size, boolean decayed) {
    }

    public DecaySegments {
        segments = List.copyOf(segments);
        int expected = 0;
        for (Segment s : segments) {
            if (s.offset() != expected || s.size() < 1) {
                throw new IllegalArgumentException("segment " + s + " must start at " + expected + " and be non-empty");
            }
            expected += s.size();
        }
    }

    /** Weight decay on all {@code size} values. */
    public static DecaySegments all(int size) {
        return new DecaySegments(List.of(new Segment(0, size, true)));
    }

    /** Weight decay on every tensor of {@code layout} but those of rank 1 (biases, batch-norm scales and shifts). */
    public static DecaySegments excludingVectors(TensorLayout layout) {
        List<Segment> runs = new ArrayList<>();
        for (TensorLayout.Tensor t : layout.tensors()) {
            boolean decayed = t.shape().length > 1;
            Segment last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last.decayed() == decayed) {
                runs.set(runs.size() - 1, new Segment(last.offset(), last.size() + t.size(), decayed));
            } else {
                runs.add(new Segment(t.offset(), t.size(), decayed));
            }
        }
        return new DecaySegments(runs);
    }

    /** The number of values covered. */
    public int size() {
        Segment last = segments.get(segments.size() - 1);
        return last.offset() + last.size();
    }

    /** Whether every value is decayed. */
    public boolean decaysAll() {
        return segments.stream().allMatch(Segment::decayed);
    }
}
