package org.gridrun.engine.backend;

import dev.ludovic.netlib.blas.BLAS;
import java.util.Locale;

/**
 * Which path the CPU backend's convolutions take: oneDNN where its natives load and its threads match the backend's,
 * else im2col and {@code sgemm}; {@code -Dgridrun.conv=im2col} keeps im2col anywhere, {@code -Dgridrun.conv=onednn}
 * fails where oneDNN cannot run rather than fall back.
 */
final class ConvPaths {
    /** The system property that picks the path: {@code auto} (the default), {@code onednn} or {@code im2col}. */
    static final String PROPERTY = "gridrun.conv";

    private ConvPaths() {
    }

    /** A fresh convolver on the path this process takes. */
    static Convolver create(BLAS blas) {
        return oneDnn() ? new OneDnnConvolution() : new CpuConvolution(blas);
    }

    /** Whether this process's convolutions run on oneDNN; throws when {@code onednn} was asked for and cannot run. */
    static boolean oneDnn() {
        String asked = System.getProperty(PROPERTY, "auto");
        return oneDnn(asked, "im2col".equalsIgnoreCase(asked.trim()) ? null : OneDnn.unusableReason());
    }

    /**
     * Whether the path {@code asked} for runs on oneDNN, given why oneDNN cannot run here ({@code null}: it can);
     * throws when {@code onednn} was asked for and cannot run, or {@code asked} is no path.
     */
    static boolean oneDnn(String asked, String unusableReason) {
        return switch (asked.trim().toLowerCase(Locale.ROOT)) {
            case "im2col" -> false;
            case "auto" -> unusableReason == null;
            case "onednn" -> {
                if (unusableReason != null) {
                    throw new IllegalStateException("-D" + PROPERTY + "=onednn, but " + unusableReason);
                }
                yield true;
            }
            default -> throw new IllegalArgumentException("-D" + PROPERTY + " must be auto, onednn or im2col, found '"
                    + asked + "'");
        };
    }

    /** The path in words, and why oneDNN does not run where it does not. */
    static String describe() {
        String asked = System.getProperty(PROPERTY, "auto");
        try {
            if (oneDnn()) {
                return OneDnn.describe();
            }
        } catch (RuntimeException e) {
            return "im2col + sgemm; " + e.getMessage();
        }
        String why = "im2col".equalsIgnoreCase(asked.trim()) ? "-D" + PROPERTY + "=im2col" : OneDnn.unusableReason();
        return "im2col + sgemm (" + why + ")";
    }
}
