package org.gridrun.engine.backend;

import java.util.Locale;
import org.bytedeco.dnnl.dnnl_version_t;
import org.bytedeco.dnnl.engine;
import org.bytedeco.javacpp.Loader;

/**
 * oneDNN, through JavaCPP's presets: whether its natives load here and run one thread per call, the one CPU engine
 * every primitive runs on, and the lock they are created under.
 *
 * <p>The presets ship oneDNN built with OpenMP, whose thread count is fixed when the library loads: by
 * {@code OMP_NUM_THREADS}, else one thread per processor. Java cannot change it afterwards. The backend splits each
 * convolution between its own threads ({@link OneDnnConvolution}), so oneDNN is used only where that count is 1
 * ({@code grid-run}, its jobs, Slurm scripts and the tests set {@code OMP_NUM_THREADS=1}); elsewhere
 * {@link #unusableReason()} says why, and the convolutions stay on im2col rather than run more threads than cores.
 * oneDNN's results depend only on the shapes and the processor's instruction set. The probe never throws.
 */
final class OneDnn {
    /**
     * Held while a primitive is created: oneDNN's primitives are created one at a time in this process. oneDNN 3.11
     * sometimes creates a wrong data-gradient primitive when two threads create the same one at once (both halves
     * of a batch split in two equal halves do, on a shape's first call): on this machine (AVX-512), for a 5×5
     * convolution of 64 channels into 128 filters (lenet5's conv2; its implementation {@code brg_conv_bwd} runs a
     * forward brgemm convolution inside), 10 of 300 new shapes got one whose data gradient of one half was off by
     * hundreds from im2col's on every later call; with creation under this lock, none of 1,200. A primitive is
     * created once per shape and backend, so the lock costs a shape's first call only.
     */
    static final Object CREATION = new Object();

    private static final String REASON = probe();
    private static engine cpuEngine;

    private OneDnn() {
    }

    /** Null when oneDNN can run the convolutions here, else why not, in words. */
    static String unusableReason() {
        return REASON;
    }

    /** {@code oneDNN 3.11.0, one thread per call, batches split over 2 threads}: the version and the threads. */
    static String describe() {
        dnnl_version_t v = org.bytedeco.dnnl.global.dnnl.dnnl_version();
        return String.format(Locale.ROOT, "oneDNN %d.%d.%d, one thread per call, batches split over %d thread%s",
                v.major(), v.minor(), v.patch(), CpuParallel.threads(), CpuParallel.threads() == 1 ? "" : "s");
    }

    /** The CPU engine, created on first use. */
    static synchronized engine cpu() {
        if (cpuEngine == null) {
            cpuEngine = new engine(engine.kind.cpu, 0);
        }
        return cpuEngine;
    }

    /**
     * The threads OpenMP starts: the first number of {@code OMP_NUM_THREADS}, else the processors; 0 when the
     * variable is not a number.
     */
    static int openMpThreads() {
        String value = System.getenv("OMP_NUM_THREADS");
        if (value == null || value.isBlank()) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            return Integer.parseInt(value.split(",")[0].trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String probe() {
        int threads = openMpThreads();
        if (threads != 1) {
            return String.format(Locale.ROOT, "oneDNN would run %s OpenMP threads in each of the backend's: set "
                    + "OMP_NUM_THREADS=1", threads == 0 ? "an unreadable number of" : Integer.toString(threads));
        }
        try {
            Loader.load(org.bytedeco.dnnl.global.dnnl.class);
            cpu();
            return null;
        } catch (Throwable e) {
            // UnsatisfiedLinkError, NoClassDefFoundError, a failed extraction: no natives for this platform
            return "oneDNN's natives did not load on " + System.getProperty("os.name") + " "
                    + System.getProperty("os.arch") + " (" + e.getClass().getSimpleName() + ")";
        }
    }
}
