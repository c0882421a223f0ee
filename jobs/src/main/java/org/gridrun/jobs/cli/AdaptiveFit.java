package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridrun.engine.compress.AdaptiveQuantizer;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.jobs.UserInputException;

/**
 * The level fit of an adaptive quantizer (ALQ/AMQ) in {@code grid-run compress}: with no trainer to lend it sampled
 * gradients, the method fits its levels to the input itself, or to the {@code --sample} gradients, before it encodes,
 * so the error printed is that of the method and not of its starting levels (uniform for ALQ, {@code ±0.5^j} for
 * AMQ).
 *
 * @param samples the gradients the levels are fitted to
 * @param source  what they are, for the report
 */
record AdaptiveFit(List<float[]> samples, String source) {
    /** The fit to {@code sampleFiles}, or to {@code input} when none is given; each must hold {@code n} values. */
    static AdaptiveFit of(float[] input, List<Path> sampleFiles) {
        if (sampleFiles.isEmpty()) {
            return new AdaptiveFit(List.of(input), "the input itself");
        }
        List<float[]> samples = new ArrayList<>();
        for (Path file : sampleFiles) {
            float[] values = GradientFile.read(file).values();
            if (values.length != input.length) {
                throw new UserInputException("--sample " + file + ": holds " + values.length + " values, the input "
                        + input.length + "; samples must be gradients of the same tensors");
            }
            samples.add(values);
        }
        return new AdaptiveFit(samples, samples.size() + " --sample gradient" + (samples.size() == 1 ? "" : "s"));
    }

    /** Fits {@code c} (bound to its layout) when it is adaptive; the proxy before and after, or null when not. */
    double[] apply(Compressor c) {
        return c instanceof AdaptiveQuantizer adaptive ? adaptive.fitNow(samples) : null;
    }

    /** Prints the fit: where from, the levels (and AMQ's p) before and after, the variance proxy before and after. */
    void print(PrintWriter out, Map<String, Double> before, Map<String, Double> after, double[] proxy) {
        out.printf(Locale.ROOT, "level fit        on %s%n", source);
        out.printf(Locale.ROOT, "levels before    %s%n", levels(before));
        out.printf(Locale.ROOT, "levels after     %s%n", levels(after));
        if (after.containsKey("multiplier")) {
            out.printf(Locale.ROOT, "p before/after   %.6g / %.6g%n", before.getOrDefault("multiplier", Double.NaN),
                    after.get("multiplier"));
        }
        out.printf(Locale.ROOT, "variance proxy   %.6g before, %.6g after the fit%n", proxy[0], proxy[1]);
    }

    private static String levels(Map<String, Double> diagnostics) {
        return Arrays.toString(diagnostics.entrySet().stream().filter(e -> e.getKey().startsWith("levels/"))
                .mapToDouble(Map.Entry::getValue).mapToObj(v -> String.format(Locale.ROOT, "%.4g", v)).toArray());
    }
}
