package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.gridrun.engine.backend.BackendProbe;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.compress.CompressorProvider;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.train.TrainerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run list keys|compressors|backends}: what a grid may use, with defaults, and why a backend is not
 * available.
 */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the trainer's configuration keys, the compressors with their parameters, or the "
                + "backends with their availability.")
final class ListCommand implements Callable<Integer> {
    /** What to list. */
    enum Topic { keys, compressors, backends }

    @Parameters(paramLabel = "WHAT", description = "One of: ${COMPLETION-CANDIDATES}.")
    Topic topic;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        switch (topic) {
            case keys -> {
                int width = nameWidth(TrainerConfig.schema());
                TrainerConfig.schema().forEach(key -> printKey(out, "", width, key));
            }
            case compressors -> {
                int width = nameWidth(Compressors.providers().stream().flatMap(p -> p.parameters().stream())
                        .toList());
                Compressors.providers().forEach(p -> printCompressor(out, width, p));
            }
            case backends -> Backends.probe().forEach(p -> printBackend(out, p));
            default -> throw new IllegalStateException("unhandled topic " + topic);
        }
        out.flush();
        return 0;
    }

    /** The width of the keys' column: the longest name's. */
    private static int nameWidth(List<ConfigKey> keys) {
        return keys.stream().mapToInt(k -> k.name().length()).max().orElse(1);
    }

    private static void printKey(PrintWriter out, String indent, int width, ConfigKey key) {
        out.printf(Locale.ROOT, "%s%-" + width + "s %-8s default %-14s %s%n", indent, key.name(),
                key.type().name().toLowerCase(Locale.ROOT), defaultText(key.defaultValue()), key.help());
    }

    private static String defaultText(Object value) {
        return value == null || "".equals(value) ? "(none)" : String.valueOf(value);
    }

    private static void printCompressor(PrintWriter out, int width, CompressorProvider provider) {
        out.printf(Locale.ROOT, "%-10s %-10s %s%n", provider.name(),
                provider.aggregation().name().toLowerCase(Locale.ROOT).replace('_', '-'), provider.summary());
        provider.parameters().forEach(key -> printKey(out, "    ", width, key));
        out.printf(Locale.ROOT, "    on cuda: %s%n", whereItEncodes(provider));
    }

    /** Where the method, with its defaults, encodes when the gradient lives on a CUDA backend's GPU. */
    private static String whereItEncodes(CompressorProvider provider) {
        if (Compressors.stepsOnDevice(provider.name())) {
            return "runs its whole step on the GPU with these defaults (nothing crosses to the host)";
        }
        return Compressors.onDevice(provider.name()).isPresent()
                ? "encodes on the GPU with these defaults (only the payload crosses to the host)"
                : "encodes on the host (the gradient is downloaded)";
    }

    private static void printBackend(PrintWriter out, BackendProbe probe) {
        out.printf(Locale.ROOT, "%-6s %-13s %s%n", probe.name(), probe.available() ? "available" : "unavailable",
                probe.detail());
    }
}
