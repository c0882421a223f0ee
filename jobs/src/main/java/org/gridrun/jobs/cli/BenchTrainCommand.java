package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.DeviceCodec;
import org.gridrun.engine.backend.LossSums;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.model.nn.Models;
import org.gridrun.engine.model.nn.Shape;
import org.gridrun.engine.optim.Sgd;
import org.gridrun.engine.train.GradientClip;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run bench train}: milliseconds per training step (forward, backward, SGD update) of each model on the
 * CPU or CUDA backend, one worker and no compression, next to PyTorch's time for the identical model on the same
 * device, measured in the same run when PyTorch is installed (with a GPU, for {@code --backend cuda}).
 *
 * <p>Fair to PyTorch: every PyTorch measurement runs first, while this JVM is idle (no JIT compiler thread busy with
 * gridrun's kernels yet), with PyTorch's own thread pool at the CPU backend's thread count and OpenBLAS given as many
 * threads, whatever this process's {@code OPENBLAS_NUM_THREADS} says; on the CPU, images in both memory formats
 * (NCHW and channels-last) are timed and the faster kept, in two PyTorch processes, the one with the lower median
 * kept ({@link TorchBench#times}). Both sides report the fastest and the median step.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Milliseconds per training step (forward + backward + SGD momentum update, one worker, no "
                + "compression) of each model on the chosen backend, next to PyTorch's time for the identical "
                + "model, batch and device (thread count on the CPU), measured in the same run when python3 can "
                + "import torch (with CUDA, for --backend cuda).")
final class BenchTrainCommand implements Callable<Integer> {
    /** The models benchmarked on the CPU when none is named. */
    static final List<String> MODELS = List.of("mlp", "lenet5", "resnet20");

    /** The models benchmarked on a GPU when none is named. */
    static final List<String> GPU_MODELS = List.of("mlp", "lenet5", "resnet20", "resnet32", "resnet110");

    /** Every model the benchmark can build. */
    static final List<String> KNOWN = List.of("mlp", "lenet5", "resnet8", "resnet20", "resnet32", "resnet44",
            "resnet56", "resnet110", "resnet18", "resnet34", "resnet50", "wrn-16-4", "wrn-16-8", "wrn-22-8",
            "wrn-28-10", "wrn-40-2", "wrn-40-4", "vit", "lstm");

    /** The LSTM language model's benchmark: PowerSGD's WikiText-2 model on windows of 64 sequences × 30 tokens. */
    static final int LSTM_VOCABULARY = 33_278;
    static final int LSTM_SEQUENCES = 64;
    static final int LSTM_BPTT = 30;

    /** The ImageNet models, benchmarked on 224×224×3 images of 1000 classes. */
    static final List<String> IMAGENET = List.of("resnet18", "resnet34", "resnet50");

    @Option(names = "--model", paramLabel = "M", description = "Only these models (mlp, lenet5, resnet8 … "
            + "resnet110 on CIFAR-sized input; resnet18, resnet34, resnet50 on ImageNet-sized input, 224x224x3 and "
            + "1000 classes; wrn-16-4 … wrn-28-10 and vit on 32x32x3; lstm, PowerSGD's language model, vocabulary "
            + "33,278, on windows of 64 sequences x 30 tokens whatever --batch says, gradients clipped); repeatable. "
            + "Default: mlp, lenet5, resnet20 on cpu; also resnet32 and resnet110 on cuda.")
    List<String> models;

    @Option(names = "--backend", paramLabel = "B", defaultValue = "cpu",
            description = "cpu or cuda (default: ${DEFAULT-VALUE}).")
    String backendName;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "128",
            description = "Examples per step (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "5",
            description = "Untimed steps first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--steps", paramLabel = "S", defaultValue = "20",
            description = "Timed steps; the fastest and the median are reported (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--cuda-graph", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "On cuda, replay each step as one CUDA graph, as the trainer does with cuda_graph: true "
                    + "(default); --no-cuda-graph launches kernel by kernel.")
    boolean cudaGraph;

    @Option(names = "--no-torch", description = "Skip the PyTorch measurement.")
    boolean noTorch;

    @Option(names = "--method", paramLabel = "M", description = "Time the trainer's whole simulated step (every "
            + "worker's forward and backward, M's encode, the simulated collective, the update) with compressor M "
            + "against the same step with none, instead of a bare step against PyTorch.")
    String method;

    @Option(names = "--workers", paramLabel = "K", defaultValue = "4",
            description = "With --method: simulated workers sharing --batch (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "With --method: a trainer key of the "
            + "compressed run, e.g. --set bits=3 --set bucket_size=8192 (cuda_graph and concurrent_workers: of "
            + "both runs); repeatable.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--csv", description = "Print model,ms_min,ms_median,torch_ms_min,torch_ms_median,ratio rows "
            + "(ratio: median to PyTorch's median).")
    boolean csv;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        boolean gpu = gpu();
        if (!gpu && !backendName.equals("cpu")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--backend must be cpu or cuda, "
                    + "found '" + backendName + "'");
        }
        List<String> chosen = models == null ? (gpu ? GPU_MODELS : MODELS) : models;
        for (String m : chosen) {
            if (!KNOWN.contains(m)) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--model must be one of "
                        + KNOWN + ", found '" + m + "'");
            }
        }
        if (batch < 1 || steps < 1 || warmup < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--batch and --steps must be "
                    + "positive and --warmup not negative, found " + batch + ", " + steps + ", " + warmup);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (method != null) {
            new CompressedStepBench(backendName, workers, batch, warmup, steps, settings)
                    .print(out, models == null ? List.of("resnet20") : chosen, method);
            return 0;
        }
        int threads = CpuBackend.threads();
        TorchBench torch = noTorch ? null : TorchBench.find(gpu);
        Map<String, StepTimes> torchTimes = new LinkedHashMap<>();
        for (String m : chosen) {
            torchTimes.put(m, torch == null ? StepTimes.NONE : torch.times(m, batch, threads, warmup, steps,
                    backendName, block()));
        }
        if (csv) {
            out.println("model,ms_min,ms_median,torch_ms_min,torch_ms_median,ratio");
        } else {
            String missing = gpu ? "missing (python3 cannot import torch with CUDA)"
                    : "missing (python3 cannot import torch)";
            String torchText = torch == null ? (noTorch ? "skipped" : missing) : torch.version();
            if (gpu) {
                String device;
                try (Backend b = Backends.open("cuda")) {
                    device = b.blas();
                }
                out.printf(Locale.ROOT, "batch %d on cuda, min and median over %d blocks of %d steps (one wait a "
                        + "block) after %d warm-up, each step %s; %s; torch: %s (eager, the same blocks), run first%n",
                        batch, Math.max(1, steps / block()), block(), warmup,
                        cudaGraph ? "one CUDA graph" : "launched kernel by kernel", device, torchText);
            } else {
                String blasThreads = System.getenv().getOrDefault("OPENBLAS_NUM_THREADS", "unset");
                out.printf(Locale.ROOT, "batch %d, %d threads, min and median of %d steps after %d warm-up; %s, "
                        + "OPENBLAS_NUM_THREADS %s; torch: %s, run first on %d threads (its OpenBLAS too)%n", batch,
                        threads, steps, warmup, CpuBackend.blasName(), blasThreads, torchText, threads);
            }
            out.printf(Locale.ROOT, "%-10s %9s %9s %11s %11s %8s%n", "model", "ms min", "ms median", "torch min",
                    "torch median", "ratio");
        }
        for (String m : chosen) {
            StepTimes ours = javaTimes(m);
            StepTimes theirs = torchTimes.get(m);
            double ratio = ours.median() / theirs.median();
            if (csv) {
                out.printf(Locale.ROOT, "%s,%.3f,%.3f,%s,%s,%s%n", m, ours.min(), ours.median(),
                        number(theirs.min(), "%.3f"), number(theirs.median(), "%.3f"), number(ratio, "%.3f"));
            } else {
                out.printf(Locale.ROOT, "%-10s %9.2f %9.2f %11s %11s %8s%n", m, ours.min(), ours.median(),
                        number(theirs.min(), "%.2f"), number(theirs.median(), "%.2f"), number(ratio, "%.2f"));
            }
            out.flush();
        }
        return 0;
    }

    private static String number(double value, String format) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value);
    }

    /** The fastest and median milliseconds of one forward + backward + SGD step of {@code name} here. */
    private StepTimes javaTimes(String name) {
        if (name.equals("lstm")) {
            return lstmTimes();
        }
        try (Backend backend = Backends.open(backendName);
             Model model = create(name, backend);
             Model.Workspace ws = model.newWorkspace(batch);
             Sgd sgd = new Sgd(backend, model.parameterCount(), 0.01, 0.9, false, 0);
             LossSums loss = backend.lossSums(1)) {
            model.initialize(1);
            Tensor x = backend.allocate(batch, model.inputSize());
            Tensor labels = backend.allocate(batch, 1);
            Tensor gradient = backend.allocate(1, model.parameterCount());
            SplittableRandom random = new SplittableRandom(7);
            float[] host = new float[x.size()];
            for (int i = 0; i < host.length; i++) {
                host[i] = (float) random.nextGaussian();
            }
            backend.upload(host, 0, x);
            float[] classes = new float[batch];
            for (int i = 0; i < batch; i++) {
                classes[i] = random.nextInt(model.classCount());
            }
            backend.upload(classes, 0, labels);
            Runnable step = () -> {
                if (cudaGraph) {
                    backend.beginStep();
                }
                model.forward(ws, x, labels, loss, 0);
                model.backward(ws, gradient);
                sgd.step(model.parameters(), gradient);
                if (cudaGraph) {
                    backend.endStep();
                }
                if (!gpu()) {
                    loss.read();
                }
            };
            return StepTimes.measure(step, loss::read, warmup, steps, block());
        }
    }

    /**
     * The fastest and median milliseconds of one truncated-BPTT step of the LSTM language model: forward and
     * backward over a window with the carried state, the gradient clipped to 0.25 where the trainer clips it (on the
     * device when its codec can, {@code DeviceCodec#clipNorm}; else downloaded, clipped by {@link GradientClip} and
     * uploaded), an SGD update.
     */
    private StepTimes lstmTimes() {
        int rows = LSTM_SEQUENCES * LSTM_BPTT;
        try (Backend backend = Backends.open(backendName);
             Model model = Models.lstm(backend, LSTM_VOCABULARY, Models.LSTM_UNITS, Models.LSTM_LAYERS,
                     Models.LSTM_DROPOUT);
             Model.Workspace ws = model.newWorkspace(rows);
             Sgd sgd = new Sgd(backend, model.parameterCount(), 0.01, 0.9, false, 0);
             LossSums loss = backend.lossSums(1)) {
            model.initialize(1);
            Tensor state = backend.allocate(LSTM_SEQUENCES, model.carriedState());
            Tensor x = backend.allocate(rows, 1);
            Tensor labels = backend.allocate(rows, 1);
            Tensor gradient = backend.allocate(1, model.parameterCount());
            SplittableRandom random = new SplittableRandom(7);
            float[] ids = new float[rows];
            for (int i = 0; i < rows; i++) {
                ids[i] = random.nextInt(LSTM_VOCABULARY);
            }
            backend.upload(ids, 0, x);
            for (int i = 0; i < rows; i++) {
                ids[i] = random.nextInt(LSTM_VOCABULARY);
            }
            backend.upload(ids, 0, labels);
            float[] host = new float[model.parameterCount()];
            ws.carry(state);
            // clipped where the trainer clips: on the device when it can (the same bits), else on the host
            Optional<DeviceCodec> clipper = backend.deviceCodec().filter(DeviceCodec::clipsNorms);
            Runnable step = () -> {
                model.forward(ws, x, labels);
                model.backward(ws, gradient);
                if (clipper.isPresent()) {
                    clipper.get().clipNorm(0, gradient, 0.25);
                } else {
                    backend.download(gradient, host, 0);
                    GradientClip.clip(host, 0.25);
                    backend.upload(host, 0, gradient);
                }
                sgd.step(model.parameters(), gradient);
                if (!gpu()) {
                    backend.synchronize();
                }
            };
            return StepTimes.measure(step, backend::synchronize, warmup, steps, block());
        }
    }

    private boolean gpu() {
        return backendName.equals("cuda");
    }

    private int block() {
        return StepTimes.block(backendName);
    }

    private static Model create(String name, Backend backend) {
        boolean imagenet = IMAGENET.contains(name);
        Shape input = switch (name) {
            case "mlp" -> Shape.flat(784);
            case "lenet5" -> new Shape(28, 28, 1);
            default -> imagenet ? new Shape(224, 224, 3) : new Shape(32, 32, 3);
        };
        return Models.create(name, backend, input, imagenet ? 1000 : 10, List.of(512, 512), true);
    }
}
