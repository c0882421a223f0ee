package org.gridrun.engine.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.LossSums;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.backend.TensorIo;
import org.gridrun.engine.backend.cuda.GpuOutOfMemoryException;
import org.gridrun.engine.compress.Aggregation;
import org.gridrun.engine.compress.CollectiveCompressor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.data.DataThreads;
import org.gridrun.engine.data.ImageData;
import org.gridrun.engine.data.ImageShape;
import org.gridrun.engine.data.LanguageBatches;
import org.gridrun.engine.data.TokenStream;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.model.Evaluation;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.model.nn.Models;
import org.gridrun.engine.model.nn.Shape;
import org.gridrun.engine.optim.Optimizer;
import org.gridrun.engine.optim.LearningRateSchedule;
import org.gridrun.engine.run.MetricSpool;

/**
 * Simulated data-parallel training: K workers, one shared model, a compressor per worker, one optimizer.
 *
 * <p>Each step, every worker draws its own minibatch, computes its gradient with the shared parameters into its own
 * flat gradient tensor, downloads it and encodes it with its own compressor into a real byte payload (a level
 * quantizer, a cast or signSGD on a backend with a device codec encodes on the device instead, and the collective
 * decodes there too: nothing crosses, {@link DeviceEncoding}). The {@link SimulatedCollective} decodes and averages the
 * payloads as the compressor's aggregation prescribes; the average is uploaded and the optimizer steps. A method that
 * talks in several dependent rounds (a {@link CollectiveCompressor}, PowerSGD) instead gets every worker's downloaded
 * gradient at once and runs its step through {@link SimulatedCollective#reduce}; its {@code decode_ms} is that whole
 * step and its {@code encode_ms} zero. Workers run one after another on one thread; all buffers are allocated in the
 * constructor, so a step allocates nothing. A compressor that fits itself to the gradient distribution (ALQ/AMQ's
 * {@code number_of_samples}) may, while encoding, have its worker compute gradients of extra minibatches drawn from a
 * stream of their own ({@link Worker#sampleGradient}); they change no training batch.
 *
 * <p>Metrics (names after the ALQ/AMQ seed where it has one), with step = iteration counted from 1: every
 * {@code log_interval} steps and at the last step, {@code loss} (mean training loss over workers and over the steps
 * since the previous record), {@code bits} and {@code bytes_sent} (one worker's payload in the step, mean over
 * workers), {@code value_bits} and {@code side_bits} (those bits split as the compressor wrote them,
 * {@link org.gridrun.engine.compress.Payload#sideBits()}), {@code ratio} ({@code 32·n / bits}), {@code lr},
 * {@code step_ms} (wall time of one simulated step), {@code encode_ms} (one worker's encoding time per step) and
 * {@code decode_ms} (decoding and averaging all K payloads, what each receiver does; in a step replayed as a graph,
 * what the host takes to queue them); every {@code chkpt_iter} steps
 * and at the end, {@code Vloss} and {@code Vacc} on the test set. {@link StepMetrics} adds the modelled communication,
 * the gradient variance with the compressor's diagnostics, and the training-set evaluation; {@link MetricsConfig} says
 * which steps train on the plain full-precision mean instead. A training loss that is NaN or infinite is recorded and
 * stops the run as diverged.
 *
 * <p>Checkpoints: given a {@link Checkpoint}, the trainer saves one every {@code chkpt_iter} steps, after that step's
 * evaluation, and when a {@link StopSignal} stops it between two steps. It holds, in this order: the parameters and the
 * optimizer state (learning rate; SGD's momentum buffer, or Adam's step count and moments); the worker count, then per
 * worker its sampler (permutation, position, epoch, random stream) and, as a length-prefixed section after its method's
 * name, its compressor's state (for {@code qsgd} the position of its random stream); the sums of the unfinished
 * training-metric interval; and the last test-set evaluation. {@link #resume} restores all of it, and the run continues
 * bit for bit as if it had never stopped: the same metrics (timings aside) and the same parameters.
 *
 * <p>Order of calls: construct; {@link #resume} when continuing from a checkpoint; {@link #run} once; {@link #close()}.
 */
public final class Trainer implements AutoCloseable {
    /** The random stream of SmaQ's memory-mode codec, apart from the workers' compressors. */
    static final long MEMORY_CODEC_STREAM = (2L << 40) - 1;

    /** The offset of the compressors' random streams: worker {@code w} uses this plus {@code w}. */
    public static final long COMPRESSOR_STREAM_BASE = 2L << 40;

    private final TrainerConfig config;
    private final Backend backend;
    private final TrainTestData data;
    private final Model model;
    /** The threads decoding images, for a data set read from files; else inline. */
    private final DataThreads dataThreads;
    /** The activation buffers all workers share (they run one after another). */
    private final Model.Workspace workspace;
    private final Optimizer optimizer;
    private final LearningRateSchedule schedule;
    /** The run's length, {@link TrainerConfig#totalIterations}. */
    private final long niters;
    private final Worker[] workers;
    private final Compressor[] compressors;
    /** The backend's device encoder of the methods that plan for it, or null (see {@link DeviceEncoding}). */
    private final DeviceEncoding deviceEncoding;
    private final Payload[] payloads;
    /** PowerSGD's step on the device, where the backend runs it; else null (see {@link DevicePowerSgd}). */
    private final DevicePowerSgd devicePowerSgd;
    /** The compressors as collective ones, when the method is one; else null. */
    private final CollectiveCompressor[] collectives;
    /** Every worker's downloaded gradient, for a collective method; else null. */
    private final float[][] workerGradients;
    private final Aggregation aggregation;
    private final SimulatedCollective collective;
    /** The test-set evaluator of images, or null for a language model. */
    private final Evaluator evaluator;
    /** A language model's evaluator, or null. */
    private final TextEvaluator textEvaluator;
    /** Whether the model is a language model, which records perplexities. */
    private final boolean language;
    private final float[] hostGradient;
    private final float[] hostAverage;
    /** The plain mean of the full-precision gradients, for a step that applies it. */
    private final float[] hostPlain;
    private final MetricsConfig modes;
    private final StepMetrics stepMetrics;
    private final Tensor average;
    /** The workers' summed losses of a step, left on the device until the step is queued. */
    private final LossSums losses;
    private final IntervalStats interval = new IntervalStats();
    /** A graph step whose loss is still on the device: read while the next step is prepared ({@link #advance}). */
    private Deferred deferred;
    /** Whether a logged graph step's payload sizes are still to be read once its graph has run ({@link #advance}). */
    private boolean sizesAfterStep;
    /** SmaQ's memory mode, or null when off. */
    private final MemoryCodec memory;
    /**
     * The workspaces of workers 1 to K−1 (worker 0's is {@link #workspace}) where each worker's pass is a lane of the
     * step ({@link Backend#lane}), else null.
     */
    private final Model.Workspace[] workerSpaces;
    private long step;
    private long savedStep = -1;
    private Evaluation lastEvaluation;

    /** Builds the model, optimizer, workers and compressors of {@code config} on {@code backend}. */
    public Trainer(TrainerConfig config, Backend backend, TrainTestData data) {
        this.config = config;
        this.backend = backend;
        this.data = data;
        LanguageConfig lm = config.language();
        this.language = data.train() instanceof TokenStream;
        this.model = language ? Models.lstm(backend, data.train().classes(), lm.units(), lm.layers(), lm.dropout())
                : Models.create(config.model(), backend, shape(data.train().shape()), data.train().classes(),
                config.hidden(), config.dropout(), config.vit());
        model.initialize(config.seed());
        int n = model.parameterCount();
        this.optimizer = OptimizerKeys.create(config, backend, model.layout());
        LanguageBatches[] text = new LanguageBatches[config.ngpu()];
        for (int w = 0; language && w < text.length; w++) {
            text[w] = new LanguageBatches((TokenStream) data.train(), text.length * config.batchSize(),
                    w * config.batchSize(), config.batchSize(), lm.bptt());
        }
        // An epoch of a language model is each worker's pass over its columns: its full windows.
        int epochUnits = language ? text[0].fullWindows() * config.batchSize() : data.train().size();
        this.niters = config.totalIterations(epochUnits);
        this.schedule = config.schedule(epochUnits);
        Compressor prototype = Compressors.create(config.method(), config.compressorParams(), config.seed());
        this.aggregation = prototype.aggregation();
        this.dataThreads = data.train().decodesOnDemand() ? DataThreads.of(config.dataThreads())
                : DataThreads.inline();
        this.workspace = model.newWorkspace(language ? text[0].rows() : config.batchSize());
        this.evaluator = language ? null : new Evaluator(backend, model, data.test(), dataThreads, workspace);
        this.textEvaluator = language ? new TextEvaluator(backend, model, (TokenStream) data.test(),
                lm.evalBatchSize(), lm.bptt()) : null;
        this.average = backend.allocate(1, n);
        this.losses = backend.lossSums(config.ngpu());
        // Workers whose passes run at the same time each need activation memory of their own; worker 0 takes the
        // trainer's, which evaluations and measurements share outside the steps. Allocated after the rest, so that
        // what does not fit is theirs.
        boolean atOnce = config.ngpu() > 1 && config.cudaGraph() && config.concurrentWorkers()
                && config.memoryCodec().isEmpty() && backend.runsLanesAtOnce();
        this.workerSpaces = atOnce ? workerSpaces(model, language ? text[0].rows() : config.batchSize(),
                config.ngpu()) : null;
        if (workersAtOnce()) {
            backend.readInLanes(model.parameters());
            backend.slicedInLanes(model.statistics());
        }
        this.workers = new Worker[config.ngpu()];
        this.compressors = new Compressor[config.ngpu()];
        this.deviceEncoding = DeviceEncoding.of(backend, config.ngpu());
        for (int w = 0; w < workers.length; w++) {
            workers[w] = new Worker(w, backend, model, data.train(), config.batchSize(), config.seed(), dataThreads,
                    workersAtOnce() && w > 0 ? workerSpaces[w] : workspace, text[w]);
            compressors[w] = prototype.copy(COMPRESSOR_STREAM_BASE + w);
            compressors[w].bind(model.layout());
            compressors[w].bindSampler(workers[w]::sampleGradient);
        }
        this.payloads = new Payload[workers.length];
        this.collectives = prototype instanceof CollectiveCompressor
                ? Arrays.copyOf(compressors, compressors.length, CollectiveCompressor[].class) : null;
        this.workerGradients = collectives == null ? null : new float[workers.length][n];
        this.devicePowerSgd = deviceEncoding == null ? null : DevicePowerSgd.of(backend, compressors, n);
        this.collective = new SimulatedCollective(workers.length, n);
        this.memory = config.memoryCodec().isEmpty() ? null : memoryCodec(config, backend, model);
        this.hostGradient = new float[n];
        this.hostAverage = new float[n];
        this.hostPlain = new float[n];
        this.modes = config.metrics();
        this.stepMetrics = new StepMetrics(modes, backend, model, data.train(), dataThreads, workspace, workers,
                prototype);
    }

    /** Whether the workers' passes run at the same time on the device ({@code concurrent_workers}). */
    public boolean workersAtOnce() {
        return workerSpaces != null;
    }

    /** The model being trained. */
    Model model() {
        return model;
    }

    /** SmaQ's memory mode of {@code config}, hooked into {@code model}. */
    private static MemoryCodec memoryCodec(TrainerConfig config, Backend backend, Model model) {
        Compressor codec = Compressors.create(config.memoryCodec(), config.memoryParams(), config.seed())
                .copy(MEMORY_CODEC_STREAM);
        MemoryCodec memory = new MemoryCodec(backend, codec, config.memoryTargets().stream()
                .map(t -> MemoryCodec.Target.valueOf(t.toUpperCase(Locale.ROOT))).toList());
        memory.attach(model);
        return memory;
    }

    /**
     * Workspaces of {@code rows} rows for workers 1 to {@code workers − 1}, or null, with a line on standard error,
     * where they do not fit the device: the workers then run one after another in one.
     */
    private static Model.Workspace[] workerSpaces(Model model, int rows, int workers) {
        Model.Workspace[] spaces = new Model.Workspace[workers];
        try {
            for (int w = 1; w < workers; w++) {
                spaces[w] = model.newWorkspace(rows);
            }
            return spaces;
        } catch (GpuOutOfMemoryException e) {
            for (Model.Workspace space : spaces) {
                if (space != null) {
                    space.close();
                }
            }
            System.err.printf(Locale.ROOT, "gridrun: concurrent_workers off: the activation memory of %d workers "
                    + "does not fit the GPU (%s); they run one after another in one workspace%n", workers,
                    e.getMessage());
            return null;
        }
    }

    /** The model's input shape for images of {@code image}. */
    private static Shape shape(ImageShape image) {
        return new Shape(image.height(), image.width(), image.channels());
    }

    /** Where the data came from, and what reading it met (images skipped as unreadable). */
    private String dataReport() {
        StringBuilder report = new StringBuilder(data.source());
        for (ImageData split : List.of(data.train(), data.test())) {
            if (!split.summary().isEmpty()) {
                report.append("; ").append(split.name()).append(": ").append(split.summary());
            }
        }
        return report.toString();
    }

    /** One line: model, workers, compressor, data and backend. */
    public String describe() {
        return String.format(Locale.ROOT, "%s (%d parameters), %d workers x batch %d%s, %s %s (%s), %d iterations; "
                        + "data: %s; backend: %s (%s)", model.describe(), model.parameterCount(), workers.length,
                config.batchSize(), workersAtOnce() ? " at once" : "", config.method(), compressors[0].config(),
                aggregation.name().toLowerCase(Locale.ROOT).replace('_', '-'), niters,
                data.train().decodesOnDemand() ? data.source() + ", " + dataThreads : data.source(), backend.name(),
                backend.blas());
    }

    /**
     * Restores the state saved in {@code checkpoint}, which must be one of this configuration; {@link #run} then
     * continues with the step after the saved one. Returns the saved step.
     *
     * <p>A checkpoint that is damaged, of another format version or config, or that does not fit this trainer fails
     * with an {@link IllegalStateException} naming the file.
     */
    public long resume(Checkpoint checkpoint) {
        step = checkpoint.load(this::readState);
        savedStep = step;
        return step;
    }

    /** Trains for {@code niters} steps (or until divergence), writing metrics to {@code metrics}; saves nothing. */
    public TrainResult run(MetricSpool.Writer metrics, TrainListener listener) {
        return train(metrics, listener, null, new StopSignal());
    }

    /**
     * Trains from the current step (0, or the one {@link #resume} restored) to {@code niters}, until divergence or
     * until {@code stop} is requested, saving checkpoints to {@code checkpoint}.
     *
     * <p>The stop request is honoured at the next step boundary: the step under way completes with its metrics and
     * evaluation, a checkpoint is saved (unless one was just saved at that step), and the result says why it
     * stopped. A request during the last step lets the run complete.
     */
    public TrainResult run(MetricSpool.Writer metrics, TrainListener listener, Checkpoint checkpoint,
                           StopSignal stop) {
        return train(metrics, listener, Objects.requireNonNull(checkpoint, "checkpoint"),
                Objects.requireNonNull(stop, "stop"));
    }

    private TrainResult train(MetricSpool.Writer metrics, TrainListener listener, Checkpoint checkpoint,
                              StopSignal stop) {
        listener.onStart(step == 0 ? describe() : describe() + "; resumed from checkpoint at step " + step);
        long start = System.nanoTime();
        boolean diverged = false;
        while (step < niters && !diverged && !stop.isRequested()) {
            step++;
            diverged = !Double.isFinite(advance(stop));
            if (diverged || logsAt(step)) {
                log(metrics, listener);
            }
            if (!diverged) {
                if (deviceEncoding != null && stepMetrics.measuresAt(step)) {
                    // worker 0's diagnostics (jointsq's width shares) where its payload is on the device
                    deviceEncoding.showPayload(0, compressors[0]);
                }
                stepMetrics.measure(metrics, step, compressors);
            }
            if (!diverged && (step % config.chkptIter() == 0 || step == niters)) {
                lastEvaluation = evaluate(metrics, listener);
            }
            if (!diverged && step % config.chkptIter() == 0) {
                save(checkpoint);
            }
        }
        if (!settleDeferred()) {
            // a stop requested during a step whose loss was still on the device, and that loss is not finite
            diverged = true;
            log(metrics, listener);
        }
        boolean stopped = !diverged && step < niters;
        if (stopped && savedStep != step) {
            save(checkpoint);
        }
        metrics.flush();
        Evaluation last = lastEvaluation;
        return new TrainResult(step, last == null ? Double.NaN : last.accuracy(),
                last == null ? Double.NaN : last.meanLoss(), Headline.of(language), diverged,
                stopped ? stop.reason() : "", dataReport(), backend.name(), backend.blas(),
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * One training step; returns the mean loss over workers (not finite: the step was not applied, except in a step
     * replayed as a graph, whose update is queued before its loss is known; the run stops as diverged either way and
     * saves and evaluates nothing after it). The step applies the compressed average, or the plain one where
     * {@link MetricsConfig#plainAt} says so; the compressor encodes where {@link MetricsConfig#encodesAt} says so,
     * else the step is counted as sent in full precision.
     *
     * <p>Each worker's loss stays on the backend's device until every worker has queued its work
     * ({@link LossSums}). A step whose encodes go to the device codec is bracketed by {@link Backend#beginStep()}
     * and {@link Backend#endStep()} when {@code cuda_graph} is on, so that the CUDA backend replays it as one graph;
     * where a worker encodes on the host after all, its download makes that step run kernel by kernel.
     *
     * <p>A graph step after which nothing reads the model or the interval ({@link #defersLoss}) returns 0 without
     * waiting for its graph: its loss is read, and its measurements added, by the next step once that step is ready
     * to launch (or by the end of the run), so the device runs one step while the host prepares the next. Where that
     * loss is not finite, the next step returns NaN with {@code step} back at the diverged one.
     */
    private double advance(StopSignal stop) {
        long start = System.nanoTime();
        optimizer.setLearningRate(schedule.at(step));
        boolean plain = modes.plainAt(step);
        boolean encodes = modes.encodesAt(step);
        long encode = 0;
        long compute = 0;
        int n = hostGradient.length;
        double clipNorm = config.clipping().workerNorm();
        // Clipping on the device keeps the gradient (and the average) there, with the host's bits; otherwise a
        // worker's gradient is clipped once downloaded, and then the compressor encodes on the host.
        boolean deviceClips = deviceEncoding != null && deviceEncoding.clipsNorms();
        boolean clipOnDevice = clipNorm > 0 && deviceClips;
        boolean clipsFit = deviceClips || clipNorm <= 0 && config.clipping().averageNorm() <= 0;
        boolean onDevice = deviceEncoding != null && collectives == null && encodes && !plain && clipsFit;
        boolean lowRankOnDevice = devicePowerSgd != null && encodes && !plain && clipsFit;
        boolean graphed = (onDevice || lowRankOnDevice) && config.cudaGraph() && memory == null;
        if (!graphed && !settleDeferred()) {
            return Double.NaN;
        }
        if (onDevice) {
            deviceEncoding.beginStep(graphed && backend.replaysSteps());
        }
        if (graphed) {
            backend.beginStep();
        }
        for (int w = 0; w < workers.length; w++) {
            if (graphed && workersAtOnce()) {
                backend.lane(w);
            }
            long c = System.nanoTime();
            workers[w].computeGradient(step, losses, w);
            if (clipOnDevice) {
                deviceEncoding.clipNorm(w, workers[w].gradient(), clipNorm);
            }
            compute += System.nanoTime() - c;
            if (lowRankOnDevice) {
                continue;
            }
            if (onDevice) {
                long t = System.nanoTime();
                payloads[w] = deviceEncoding.encode(w, compressors[w], workers[w].gradient());
                if (payloads[w] != null) {
                    encode += System.nanoTime() - t;
                    continue;
                }
            }
            float[] downloaded = collectives != null ? workerGradients[w] : hostGradient;
            backend.download(workers[w].gradient(), downloaded, 0);
            if (clipNorm > 0 && !clipOnDevice) {
                GradientClip.clip(downloaded, clipNorm);
            }
            if (plain) {
                SimulatedCollective.addToMean(downloaded, w, workers.length, hostPlain);
            }
            if (collectives == null && encodes) {
                long t = System.nanoTime();
                payloads[w] = compressors[w].encode(hostGradient, 0, n);
                encode += System.nanoTime() - t;
            }
        }
        if (graphed && workersAtOnce()) {
            backend.lane(-1);
        }
        long decode = 0;
        double loss = graphed ? Double.NaN : meanLoss(losses.read());
        if (graphed || Double.isFinite(loss)) {
            decode = applyAverage(plain, encodes, onDevice, lowRankOnDevice, graphed, n);
        }
        if (graphed) {
            backend.endStep();
            if (sizesAfterStep) {
                sizesAfterStep = false;
                deviceEncoding.settleSizes(payloads);
                collective.countDecodedElsewhere(aggregation, payloads, collective.decodeNanos());
            }
            if (!settleDeferred()) {
                return Double.NaN;
            }
            if (defersLoss(stop)) {
                losses.startRead();
                deferred = new Deferred(step, System.nanoTime() - start, encode / workers.length, decode,
                        compute / workers.length);
                return 0;
            }
            loss = meanLoss(losses.read());
        }
        interval.add(loss, System.nanoTime() - start, encode / workers.length, decode, compute / workers.length);
        return loss;
    }

    /**
     * A step whose loss is read later: {@link #advance} queued its graph and returned without waiting for it, so that
     * the device runs it while the host prepares the next step. Its measurements go to the interval once its loss is
     * known ({@link #settleDeferred}).
     */
    private record Deferred(long step, long nanos, long encode, long decode, long compute) {
    }

    /**
     * Whether the graph step just queued may leave its loss on the device until the next step has been prepared: a
     * step after which nothing reads the model or the interval (no log, evaluation, checkpoint, variance probe, last
     * step or requested stop).
     */
    private boolean defersLoss(StopSignal stop) {
        return !logsAt(step) && step % config.chkptIter() != 0 && step != niters && !stepMetrics.measuresAt(step)
                && !stop.isRequested();
    }

    /**
     * Reads the loss of the step {@link #advance} deferred, if any, and adds its measurements to the interval; false
     * where that loss is not finite: the run then diverged at that step, which becomes the current one again (the
     * model was updated by the steps after it too, as a graph step's update is queued before its loss is known; the
     * run saves and evaluates nothing after it either way).
     */
    private boolean settleDeferred() {
        if (deferred == null) {
            return true;
        }
        Deferred d = deferred;
        deferred = null;
        double loss = meanLoss(losses.finishRead());
        interval.add(loss, d.nanos, d.encode, d.decode, d.compute);
        if (!Double.isFinite(loss)) {
            step = d.step;
            return false;
        }
        return true;
    }

    /** The mean of the workers' losses of a step from their {@code sums}. */
    private double meanLoss(double[] sums) {
        double loss = 0;
        for (int w = 0; w < workers.length; w++) {
            loss += workers[w].meanLoss(sums[w]);
        }
        return loss / workers.length;
    }

    /**
     * Averages the step's payloads (or gradients) as the compressor's aggregation says and applies the average,
     * clipped to {@code clip_average_norm} where set, with the optimizer; {@code onDevice}: the device codec had the
     * step's encodes; {@code lowRankOnDevice}: PowerSGD's step runs on the device; {@code graphed}: the step may
     * replay as a graph, so a logged step's payload sizes are read after it ({@link #sizesAfterStep}). Returns the
     * decoding time.
     */
    private long applyAverage(boolean plain, boolean encodes, boolean onDevice, boolean lowRankOnDevice,
                              boolean graphed, int n) {
        boolean decodedOnDevice = lowRankOnDevice || onDevice && deviceEncoding.allOnDevice();
        if (!encodes) {
            collective.sendFullPrecision(n);
        } else if (lowRankOnDevice) {
            long t = System.nanoTime();
            devicePowerSgd.step(workers, average);
            collective.countReducedElsewhere(collectives, System.nanoTime() - t);
        } else if (collectives != null) {
            collective.reduce(collectives, workerGradients, hostAverage);
        } else if (decodedOnDevice) {
            long t = System.nanoTime();
            deviceEncoding.decodeIntoMean(average);
            // the sizes the log records (smaq's depend on the values) are a download: in a graph step it is made, and
            // the step counted again, once the graph has run, so that the logged step replays too
            sizesAfterStep = graphed && logsAt(step);
            if (logsAt(step) && !graphed) {
                deviceEncoding.settleSizes(payloads);
            }
            collective.countDecodedElsewhere(aggregation, payloads, System.nanoTime() - t);
        } else {
            if (onDevice) {
                deviceEncoding.download(payloads);
            }
            collective.aggregate(aggregation, compressors, payloads, hostAverage);
        }
        double clipAverage = config.clipping().averageNorm();
        if (!decodedOnDevice) {
            float[] host = plain ? hostPlain : hostAverage;
            if (clipAverage > 0) {
                GradientClip.clip(host, clipAverage);
            }
            backend.upload(host, 0, average);
        } else if (clipAverage > 0) {
            // the step's clipping chose the device path only where the device clips (clipsFit); worker 0's slot is
            // free again once the average is made
            deviceEncoding.clipNorm(0, average, clipAverage);
        }
        optimizer.step(model.parameters(), average);
        if (memory != null) {
            memory.afterStep(model.parameters(), optimizer);
        }
        return collective.decodeNanos();
    }

    /** Whether {@code step} records the training metrics (besides a diverged step): every log interval and the last. */
    private boolean logsAt(long step) {
        return step % config.logInterval() == 0 || step == niters;
    }

    private void log(MetricSpool.Writer metrics, TrainListener listener) {
        double bits = collective.meanPayloadBits();
        metrics.write("loss", step, interval.meanLoss());
        if (language) {
            metrics.write("ppl", step, Math.exp(interval.meanLoss()));
        }
        metrics.write("bits", step, bits);
        metrics.write("value_bits", step, bits - collective.meanSideBits());
        metrics.write("side_bits", step, collective.meanSideBits());
        if (memory != null) {
            metrics.write("memory_ratio", step, memory.takeRatio());
        }
        metrics.write("bytes_sent", step, collective.meanPayloadBytes());
        metrics.write("ratio", step, bits == 0 ? Double.NaN : 32.0 * hostGradient.length / bits);
        metrics.write("lr", step, optimizer.learningRate());
        metrics.write("step_ms", step, interval.stepMillis());
        metrics.write("encode_ms", step, interval.encodeMillis());
        metrics.write("decode_ms", step, interval.decodeMillis());
        stepMetrics.logComm(metrics, step, interval, collective);
        metrics.flush();
        double samples = (double) interval.steps() * workers.length * config.batchSize();
        listener.onLog(step, niters, interval.meanLoss(), samples / interval.seconds());
        interval.clear();
    }

    private Evaluation evaluate(MetricSpool.Writer metrics, TrainListener listener) {
        Evaluation e = language ? textEvaluator.evaluate() : evaluator.evaluate();
        metrics.write("Vloss", step, e.meanLoss());
        metrics.write("Vacc", step, e.accuracy());
        if (language) {
            metrics.write("Vppl", step, Math.exp(e.meanLoss()));
        }
        stepMetrics.evaluateTraining(metrics, step);
        metrics.flush();
        listener.onEval(step, Headline.of(language), e.meanLoss(), e.accuracy());
        return e;
    }

    private void save(Checkpoint checkpoint) {
        if (checkpoint != null) {
            checkpoint.save(step, this::writeState);
            savedStep = step;
        }
    }

    private void writeState(DataOutput out) throws IOException {
        TensorIo.write(backend, model.parameters(), out);
        TensorIo.write(backend, model.statistics(), out);
        optimizer.saveState(out);
        out.writeInt(workers.length);
        for (int w = 0; w < workers.length; w++) {
            workers[w].saveState(out);
            out.writeUTF(compressors[w].name());
            Checkpoint.writeSection(out, compressors[w]::saveState);
        }
        interval.saveState(out);
        if (memory != null) {
            memory.saveState(out);
        }
        out.writeBoolean(lastEvaluation != null);
        if (lastEvaluation != null) {
            out.writeDouble(lastEvaluation.lossSum());
            out.writeLong(lastEvaluation.correct());
            out.writeLong(lastEvaluation.count());
        }
    }

    private void readState(DataInput in) throws IOException {
        TensorIo.read(backend, model.parameters(), in, "model");
        TensorIo.read(backend, model.statistics(), in, "model statistics");
        optimizer.restoreState(in);
        int savedWorkers = in.readInt();
        if (savedWorkers != workers.length) {
            throw new IllegalStateException("it has " + savedWorkers + " workers; this run has " + workers.length);
        }
        for (int w = 0; w < workers.length; w++) {
            workers[w].restoreState(in);
            String method = in.readUTF();
            if (!method.equals(compressors[w].name())) {
                throw new IllegalStateException("worker " + w + " compressed with " + method + "; this run uses "
                        + compressors[w].name());
            }
            Checkpoint.readSection(in, method + " state of worker " + w, compressors[w]::restoreState);
        }
        interval.restoreState(in);
        if (memory != null) {
            memory.restoreState(in);
        }
        lastEvaluation = in.readBoolean() ? new Evaluation(in.readDouble(), in.readLong(), in.readLong()) : null;
    }

    @Override
    public void close() {
        for (Worker worker : workers) {
            worker.close();
        }
        if (evaluator != null) {
            evaluator.close();
        } else {
            textEvaluator.close();
        }
        stepMetrics.close();
        workspace.close();
        if (workerSpaces != null) {
            for (Model.Workspace space : workerSpaces) {
                if (space != null) {
                    space.close();
                }
            }
        }
        dataThreads.close();
        average.close();
        losses.close();
        optimizer.close();
        model.close();
    }
}
