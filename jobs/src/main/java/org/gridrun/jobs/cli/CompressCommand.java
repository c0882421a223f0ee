package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.ErrorFeedback;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.jobs.UserInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run compress --method M --input FILE}: one method on one gradient, measured: bits per element (the
 * payload's, split into the values' codes and side information as the compressor wrote them), compression ratio,
 * relative squared error, bias, encode and decode times, and what the method reports about itself
 * ({@link Compressor#diagnostics()} after the first repeat: JointSQ's width shares, ALQ/AMQ's fitted levels).
 *
 * <p>The adaptive quantizers (ALQ/AMQ) first fit their levels to the input itself or to {@code --sample} gradients
 * ({@link AdaptiveFit}) and print the levels and the variance proxy before and after.
 */
@Command(name = "compress", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Compress a gradient (.npy float32 of any shape, or raw little-endian .f32) with one method "
                + "and print bits per element (wire, value and side bits), compression ratio, relative squared error "
                + "||Q(v)-v||^2/||v||^2 (mean over the repeats), the bias estimate ||mean Q(v) - v||^2/||v||^2, "
                + "encode/decode times and what the method reports about itself.")
final class CompressCommand implements Callable<Integer> {
    @Option(names = {"-m", "--method"}, paramLabel = "NAME", required = true,
            description = "The compressor (grid-run list compressors).")
    String method;

    @Option(names = {"-p", "--param"}, paramLabel = "KEY=VALUE",
            description = "A parameter of the method, e.g. bits=4; repeatable.")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = {"-i", "--input"}, paramLabel = "FILE", required = true,
            description = "The gradient; repeated: one worker's gradients at consecutive steps, compressed in order by "
                    + "one instance that keeps its state (warm start, residual), with each step's bits and errors.")
    List<Path> inputs = new ArrayList<>();

    /** The (first) gradient. */
    Path input;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the decoded gradient of the first repeat, in the input's format.")
    Path output;

    @Option(names = "--sample", paramLabel = "FILE", arity = "1..*",
            description = "Adaptive methods (alq, amq, ...): fit the levels to these gradients, each as long as the "
                    + "input (default: to the input itself).")
    List<Path> samples = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "The seed (default: 1).")
    long seed;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "10",
            description = "Independent draws (random streams 0..R-1) to average over (default: 10).")
    int repeat;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (repeat < 1) {
            throw new UserInputException("--repeat must be at least 1, found " + repeat);
        }
        input = inputs.get(0);
        if (inputs.size() > 1) {
            return sequence();
        }
        GradientFile gradient = GradientFile.read(input);
        float[] v = gradient.values();
        int n = v.length;
        Compressor prototype = Compressors.create(method, typed(params), seed);
        TensorLayout layout = TensorLayout.of(List.of(input.getFileName().toString()), List.of(gradient.shape()));
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        double[] mean = new double[n];
        float[] decoded = new float[n];
        double error = 0;
        long bits = 0;
        long sideBits = 0;
        Map<String, Double> diagnostics = Map.of();
        Map<String, Double> unfitted = Map.of();
        double[] proxy = null;
        AdaptiveFit fit = AdaptiveFit.of(v, samples);
        long encodeNanos = 0;
        long decodeNanos = 0;
        for (int r = 0; r < repeat; r++) {
            Compressor c = prototype.copy(r);
            c.bind(layout);
            if (r == 0) {
                unfitted = c.diagnostics();
            }
            double[] fitted = fit.apply(c);
            proxy = r == 0 ? fitted : proxy;
            long t0 = System.nanoTime();
            Payload payload = c.encode(v, 0, n);
            long t1 = System.nanoTime();
            c.decode(payload, decoded, 0);
            long t2 = System.nanoTime();
            encodeNanos += t1 - t0;
            decodeNanos += t2 - t1;
            bits += payload.bits();
            sideBits += payload.sideBits();
            if (r == 0) {
                diagnostics = c.diagnostics();
            }
            for (int i = 0; i < n; i++) {
                double d = decoded[i] - v[i];
                error += d * d;
                mean[i] += decoded[i];
            }
            if (r == 0 && output != null) {
                gradient.write(output, decoded);
            }
        }
        double bias = 0;
        for (int i = 0; i < n; i++) {
            double d = mean[i] / repeat - v[i];
            bias += d * d;
        }
        print(prototype, gradient, new double[] {(double) bits / repeat, (double) sideBits / repeat},
                error / repeat / norm, bias / norm, encodeNanos / 1e6 / repeat, decodeNanos / 1e6 / repeat);
        if (proxy != null) {
            fit.print(spec.commandLine().getOut(), unfitted, diagnostics, proxy);
        }
        printDiagnostics(diagnostics);
        return 0;
    }

    /** Compresses the inputs as consecutive steps of one worker ({@link CompressSequence}). */
    private int sequence() {
        if (output != null) {
            throw new UserInputException("--output writes one decoded gradient; give a single --input with it");
        }
        CompressSequence sequence = new CompressSequence(inputs);
        Compressor prototype = Compressors.create(method, typed(params), seed);
        sequence.run(prototype, repeat, seed, AdaptiveFit.of(sequence.first(), samples),
                spec.commandLine().getOut());
        return 0;
    }

    /** Prints the measures; {@code bits} holds the mean payload bits and the mean side bits. */
    private void print(Compressor c, GradientFile g, double[] bits, double relError, double relBias,
                       double encodeMs, double decodeMs) {
        PrintWriter out = spec.commandLine().getOut();
        int n = g.values().length;
        out.printf(Locale.ROOT, "%s %s on %s: %d values %s, %d repeats, seed %d%n", c.name(), c.config(), input, n,
                java.util.Arrays.toString(g.shape()), repeat, seed);
        out.printf(Locale.ROOT, "bits/element     %.4f  (wire: every bit of the payload)%n", bits[0] / n);
        out.printf(Locale.ROOT, "value bits       %.4f  (per element: the values' codes)%n", (bits[0] - bits[1]) / n);
        out.printf(Locale.ROOT, "side bits        %.4f  (per element: headers, scales, norms, maps, indices)%n",
                bits[1] / n);
        out.printf(Locale.ROOT, "ratio            %.2f  (32-bit floats / payload)%n", 32.0 * n / bits[0]);
        out.printf(Locale.ROOT, "rel sq error     %.4e  (||Q(v)-v||^2/||v||^2, mean over the repeats)%n", relError);
        out.printf(Locale.ROOT, "bias estimate    %.4e  (||mean Q(v)-v||^2/||v||^2; about error/R when unbiased)%n",
                relBias);
        out.printf(Locale.ROOT, "encode           %.3f ms  (%.3f GB/s of float32 input)%n", encodeMs,
                4.0 * n / (encodeMs * 1e6));
        out.printf(Locale.ROOT, "decode           %.3f ms%n", decodeMs);
        out.flush();
    }

    /** Prints what the method reported about itself after the first repeat, one name and value a line. */
    private void printDiagnostics(Map<String, Double> diagnostics) {
        PrintWriter out = spec.commandLine().getOut();
        diagnostics.forEach((name, value) -> out.printf(Locale.ROOT, "%-16s %.6g%n", name, value));
        out.flush();
    }

    /** The values of {@code --param}, typed by the method's declared parameters. */
    private Map<String, Object> typed(Map<String, String> raw) {
        Map<String, ConfigKey> keys = new LinkedHashMap<>();
        Compressors.provider(method).parameters().forEach(k -> keys.put(k.name(), k));
        Map<String, Object> typed = new LinkedHashMap<>();
        raw.forEach((name, text) -> {
            if (name.equals(ErrorFeedback.PARAMETER)) {
                typed.put(name, Boolean.parseBoolean(text) || text.isEmpty());
                return;
            }
            ConfigKey key = keys.get(name);
            if (key == null) {
                typed.put(name, text); // Compressors.create names the unknown parameter and the known ones
                return;
            }
            try {
                typed.put(name, switch (key.type()) {
                    case INT -> Long.parseLong(text.trim());
                    case DOUBLE -> Double.parseDouble(text.trim());
                    case BOOL -> parseBool(name, text.trim());
                    case STRING, INT_LIST -> text;
                });
            } catch (NumberFormatException e) {
                throw new UserInputException("--param " + name + "=" + text + ": " + name + " must be "
                        + key.type().description());
            }
        });
        return typed;
    }

    private static boolean parseBool(String name, String text) {
        if (text.equals("true") || text.isEmpty()) {
            return true;
        }
        if (text.equals("false")) {
            return false;
        }
        throw new UserInputException("--param " + name + "=" + text + ": " + name + " must be true or false");
    }
}
