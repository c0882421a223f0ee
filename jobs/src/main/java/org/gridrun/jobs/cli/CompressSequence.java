package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.jobs.UserInputException;

/**
 * {@code grid-run compress} given several inputs: one worker's gradients at consecutive steps, compressed in order by
 * one instance per repeat, which keeps its state between them (PowerSGD's warm-started factors and residual, any
 * method's error feedback).
 *
 * <p>Per step it prints the bits per element and two relative squared errors of the decoded gradient {@code d}: against
 * the step's gradient {@code g}, and against what the step had to send, {@code c = g + u} with {@code u} the sum of
 * all earlier gradients less all earlier outputs. For a method with error feedback {@code c} is exactly what it
 * approximates ({@code u} is its residual), so the second error is its approximation error; for one without, the
 * second says how far behind the sum of the gradients it has fallen. Both are means over the repeats.
 */
final class CompressSequence {
    private final List<GradientFile> steps = new ArrayList<>();
    private final List<Path> files;
    private final int[] shape;

    /** Reads the files, which must all have the shape of the first. */
    CompressSequence(List<Path> files) {
        this.files = files;
        for (Path file : files) {
            steps.add(GradientFile.read(file));
        }
        shape = steps.get(0).shape();
        for (int t = 1; t < steps.size(); t++) {
            if (!Arrays.equals(steps.get(t).shape(), shape)) {
                throw new UserInputException(files.get(t) + ": shape " + Arrays.toString(steps.get(t).shape())
                        + ", but the first step " + files.get(0) + " has shape " + Arrays.toString(shape)
                        + "; give every step of a sequence the same shape");
            }
        }
    }

    /** The first step's gradient. */
    float[] first() {
        return steps.get(0).values();
    }

    /** Runs the sequence {@code repeat} times, instance {@code r} made by {@code prototype.copy(r)} and then fitted. */
    void run(Compressor prototype, int repeat, long seed, AdaptiveFit fit, PrintWriter out) {
        int n = first().length;
        int count = steps.size();
        TensorLayout layout = TensorLayout.of(List.of(files.get(0).getFileName().toString()), List.of(shape));
        double[] bits = new double[count];
        double[] error = new double[count];
        double[] carriedError = new double[count];
        float[] decoded = new float[n];
        double[] unsent = new double[n];
        for (int r = 0; r < repeat; r++) {
            Compressor c = prototype.copy(r);
            c.bind(layout);
            fit.apply(c);
            Arrays.fill(unsent, 0);
            for (int t = 0; t < count; t++) {
                float[] g = steps.get(t).values();
                Payload payload = c.encode(g, 0, n);
                c.decode(payload, decoded, 0);
                bits[t] += payload.bits();
                double[] sums = new double[4];
                for (int i = 0; i < n; i++) {
                    double carried = g[i] + unsent[i];
                    double d = decoded[i];
                    sums[0] += (d - g[i]) * (d - g[i]);
                    sums[1] += (double) g[i] * g[i];
                    sums[2] += (d - carried) * (d - carried);
                    sums[3] += carried * carried;
                    unsent[i] = carried - d;
                }
                error[t] += sums[0] / sums[1];
                carriedError[t] += sums[2] / sums[3];
            }
        }
        out.printf(Locale.ROOT, "%s %s on %d steps %s … %s: %d values %s a step, %d repeats, seed %d%n",
                prototype.name(), prototype.config(), count, files.get(0), files.get(count - 1), n,
                Arrays.toString(shape), repeat, seed);
        out.printf(Locale.ROOT, "%-5s %-13s %-14s %s%n", "step", "bits/element", "rel sq error",
                "rel sq error of gradient + unsent");
        for (int t = 0; t < count; t++) {
            out.printf(Locale.ROOT, "%-5d %-13.6f %-14.6e %.6e%n", t, bits[t] / repeat / n, error[t] / repeat,
                    carriedError[t] / repeat);
        }
        out.flush();
    }
}
