package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gridrun.engine.backend.cuda.LaneOrder.Sharing;

/**
 * Replays a training step as one device graph ({@link DeviceGraph}): the {@link Gpu} the CUDA backend works through,
 * in front of the real one.
 *
 * <p>Outside a step, and in a step without a graph, every operation goes straight to the device. The first step
 * between {@link #beginStep()} and {@link #endStep()} runs as usual and is recorded: its launches, uploads, copies
 * and fills, in order. Its end builds the graph of those operations. The next step's host code runs again, but each
 * operation is only compared with the recorded one at its position: a kernel whose arguments changed (a learning
 * rate, a random stream's position) has its node's arguments changed, an upload's data is staged in the node's host
 * buffer, and nothing is queued until {@link #endStep()} launches the whole graph. So the device runs the step with
 * one launch, and the host pays a comparison per operation instead of a kernel launch.
 *
 * <p>A step that departs from the recording (another kernel or shape, a copy elsewhere, a download or a free, which
 * need the work before them done) queues the operations it had matched, as they are, and runs on as usual; the graph
 * is dropped and the next step records again. After {@value #MAX_MISSES} such steps in a row before any step
 * replayed ({@value #PATIENCE} after one did) the step is taken to change every time and graphs stay off
 * ({@link #disabledBecause()}).
 *
 * <p>Operations queued in a lane ({@link #lane(int)}: a worker's forward, backward and encode) become branches of the
 * graph that the device may run at the same time: each waits only for what {@link LaneOrder} says it must, so the
 * graph computes what the step computes in its recorded order. Results are the same bits either way: the graph runs
 * the same kernels with the same arguments, and kernel by kernel the lanes run one after another on one stream.
 *
 * <p>The host prepares the next step while the device runs a launched graph: nothing a replayed step matches waits for
 * it. An upload's host buffer belongs to the graph, so a replayed step's data is kept and staged at
 * {@link #endStep()}, once the graph before has finished; a download that must see the launched graph's results
 * without stopping the next step's replay ({@link #readAfterGraph}: the step's loss sums) is made then too, before the
 * next graph can overwrite them. {@link #waitsWhileMatching()} counts the waits for a launched graph that a replayed
 * step made before its end (none, unless something in the step synchronises).
 */
final class StepGraph implements Gpu {
    /** Consecutive steps that could not replay after which graphs are given up, while none has replayed yet. */
    static final int MAX_MISSES = 6;
    /**
     * The same once steps have replayed: then departures come from events (a refit, a checkpoint's fetch, a variance
     * probe) that can fall on consecutive steps, and the steps between them replay again.
     */
    static final int PATIENCE = 30;

    private enum Mode { EAGER, RECORD, REPLAY }

    private enum Kind { LAUNCH, UPLOAD, COPY, FILL }

    /** One operation of the recorded step, with the arguments it last ran with. */
    private static final class Op {
        final Kind kind;
        final String kernel;
        final int[] dims;
        KernelArgs args;
        final long src;
        final long dst;
        final long size;
        final int value;
        /** The lane it was queued in, −1 outside every lane. */
        final int lane;
        /** The memories it touches, as {@link LaneOrder#units}: in a lane, what orders it against other lanes. */
        final long[] units;

        Op(Kind kind, String kernel, int[] dims, KernelArgs args, long src, long dst, long size, int value, int lane,
           long[] units) {
            this.kind = kind;
            this.kernel = kernel;
            this.dims = dims;
            this.args = args;
            this.src = src;
            this.dst = dst;
            this.size = size;
            this.value = value;
            this.lane = lane;
            this.units = units;
        }

        @Override
        public String toString() {
            return switch (kind) {
                case LAUNCH -> kernel + Arrays.toString(dims);
                case UPLOAD -> "upload of " + size + " bytes to 0x" + Long.toHexString(dst);
                case COPY -> "copy of " + size + " bytes to 0x" + Long.toHexString(dst);
                case FILL -> "fill of " + size + " words at 0x" + Long.toHexString(dst);
            };
        }

        boolean same(Kind kind, String kernel, int[] dims, long src, long dst, long size, int value, int lane) {
            return this.kind == kind && this.lane == lane
                    && (kernel == null ? this.kernel == null : kernel.equals(this.kernel))
                    && Arrays.equals(this.dims, dims) && this.src == src && this.dst == dst && this.size == size
                    && this.value == value;
        }
    }

    /** A replayed upload's data, staged in its node's host buffer at the step's end. */
    private record Staged(int node, float[] floats, byte[] bytes, int count) {
    }

    /** A download made once the launched graph has finished ({@link #readAfterGraph}). */
    private record Read(long src, byte[] dst, int count) {
    }

    private final Gpu device;
    private final List<Op> recorded = new ArrayList<>();
    private final List<Staged> staged = new ArrayList<>();
    private final List<Read> reads = new ArrayList<>();
    private final LaneOrder lanes = new LaneOrder();
    /** The lane operations are queued in now, −1 outside every lane. */
    private int lane = -1;
    private Mode mode = Mode.EAGER;
    private DeviceGraph graph;
    /**
     * The longest chain of waits, the operations and the waits of a lane operation for another lane's of the last
     * graph built (tests and benches read them).
     */
    private int builtChain;
    private int builtOperations;
    private int builtCrossWaits;
    /** The position of the next operation of a replayed step. */
    private int next;
    /** Whether the step under way left its recording and runs as usual. */
    private boolean departed;
    /** Whether a launched graph may still be reading its upload buffers. */
    private boolean inFlight;
    private int misses;
    /** Where the last step that could not replay left its recording. */
    private String departure;
    private String disabled;
    private long replays;
    private long waitsWhileMatching;
    private long overlaps;

    StepGraph(Gpu device) {
        this.device = device;
    }

    /** Starts a step: records it when there is no graph, else replays the graph. */
    void beginStep() {
        if (mode != Mode.EAGER) {
            throw new IllegalStateException("beginStep inside a step");
        }
        if (disabled != null) {
            return;
        }
        departed = false;
        next = 0;
        lane = -1;
        if (graph == null) {
            recorded.clear();
            mode = Mode.RECORD;
        } else {
            mode = Mode.REPLAY;
            if (inFlight) {
                overlaps++;
            }
        }
    }

    /** Ends a step: builds the graph of a recorded one, or launches the replayed one. */
    void endStep() {
        Mode ended = mode;
        mode = Mode.EAGER;
        lane = -1;
        if (ended == Mode.RECORD) {
            build();
        } else if (ended == Mode.REPLAY) {
            if (!departed && next == recorded.size() && stageAndLaunch()) {
                inFlight = true;
                replays++;
                misses = 0;
            } else {
                if (!departed) {
                    departure = "its end, after " + next + " of " + recorded.size() + " operations";
                    queueMatched();
                }
                drop();
                misses++;
                if (misses >= (replays == 0 ? MAX_MISSES : PATIENCE)) {
                    disable("the step's operations changed in " + misses + " steps in a row; the last one at "
                            + departure);
                }
            }
        }
    }

    private void disable(String reason) {
        disabled = reason;
        System.err.println("gridrun: CUDA graphs off (" + reason + "); steps run kernel by kernel");
    }

    /**
     * Queues the operations that follow in lane {@code lane} (0 or more; a worker's), or outside every lane (−1):
     * in a recorded step, lanes become branches of its graph that may run at the same time.
     */
    void lane(int lane) {
        if (lane < -1) {
            throw new IllegalArgumentException("lane " + lane);
        }
        this.lane = lane;
    }

    /** Declares how lanes use the allocation holding {@code address}: see {@link LaneOrder}. */
    void share(long address, Sharing sharing) {
        if (!lanes.share(address, sharing)) {
            throw new IllegalArgumentException("no allocation holds 0x" + Long.toHexString(address));
        }
    }

    /**
     * The longest chain of waits in the last graph built ({@link LaneOrder#longestChain}), kept after a departure
     * dropped it; 0 before the first.
     */
    int longestChain() {
        return builtChain;
    }

    /** The last graph's size, in operations, kept after a departure dropped it; 0 before the first. */
    int graphOperations() {
        return builtOperations;
    }

    /**
     * How many waits of the last graph built are a lane operation's for an operation of another lane: memory that
     * lanes share and that orders them (kept after a departure dropped the graph; 0 before the first).
     */
    int crossLaneWaits() {
        return builtCrossWaits;
    }

    private int crossWaits(int[][] after) {
        int waits = 0;
        for (int i = 0; i < after.length; i++) {
            int lane = recorded.get(i).lane;
            for (int d : after[i]) {
                int other = recorded.get(d).lane;
                if (lane >= 0 && other >= 0 && other != lane) {
                    waits++;
                }
            }
        }
        return waits;
    }

    /** Why steps are no longer replayed as graphs, or null while they are. */
    String disabledBecause() {
        return disabled;
    }

    /** How many steps were launched as one graph. */
    long replays() {
        return replays;
    }

    /** How many replayed steps began while the graph launched before them was still queued, not waited for. */
    long overlaps() {
        return overlaps;
    }

    /**
     * How many times a replayed step waited for the graph launched before it while its operations were still being
     * matched: time the device may have spent idle, waiting for the host.
     */
    long waitsWhileMatching() {
        return waitsWhileMatching;
    }

    /**
     * Downloads {@code count} bytes from {@code src} into {@code dst} once the graph launched last has finished, before
     * anything else is queued (at the latest when the next step's graph launches, or at the next operation that waits
     * or queues outside a replay); at once where no graph is running.
     */
    void readAfterGraph(long src, byte[] dst, int count) {
        if (inFlight) {
            reads.add(new Read(src, dst, count));
        } else {
            downloadBytes(src, dst, count);
        }
    }

    /**
     * Makes the downloads {@link #readAfterGraph} put off, waiting for the graph they wait for if they are not made
     * yet (a graph launched since, which they do not wait for, runs on). Every operation queued outside a replay calls
     * it first, so that those downloads see the graph's results, not the operation's.
     */
    void finishReads() {
        if (!reads.isEmpty()) {
            waitForGraph();
        }
    }

    /**
     * Stages the replayed step's uploads once the graph before has finished with its buffers, then launches the
     * graph; false, with graphs turned off, where the device refuses (the step's operations then run as usual).
     */
    private boolean stageAndLaunch() {
        waitForGraph();
        stageKept();
        try {
            graph.launch();
            return true;
        } catch (RuntimeException e) {
            disable("the device could not launch the step's graph: " + e.getMessage());
            return false;
        }
    }

    /** Changes the next kernel node's arguments; where the device refuses, turns graphs off and departs. */
    private boolean changeArgs(String kernel, int[] dims, KernelArgs args) {
        try {
            graph.setArgs(next, kernel, dims, args);
            return true;
        } catch (RuntimeException e) {
            departure = "operation " + next + ": the device could not change its arguments";
            disable("the device could not change a kernel's arguments in the step's graph: " + e.getMessage());
            depart();
            return false;
        }
    }

    private void build() {
        if (recorded.isEmpty()) {
            return;
        }
        DeviceGraph g = null;
        try {
            g = device.newGraph();
            int[][] after = after();
            for (int i = 0; i < recorded.size(); i++) {
                Op op = recorded.get(i);
                switch (op.kind) {
                    case LAUNCH -> g.kernel(op.kernel, op.dims, op.args, after[i]);
                    case UPLOAD -> g.upload(op.dst, op.size, after[i]);
                    case COPY -> g.copy(op.src, op.dst, op.size, after[i]);
                    case FILL -> g.fill32(op.dst, op.value, op.size, after[i]);
                }
            }
            g.instantiate();
            graph = g;
            builtChain = LaneOrder.longestChain(after);
            builtOperations = recorded.size();
            builtCrossWaits = crossWaits(after);
        } catch (RuntimeException e) {
            if (g != null) {
                g.close();
            }
            disable("the device could not build a graph of the step: " + e.getMessage());
        }
    }

    /** What each recorded operation waits for. */
    private int[][] after() {
        int[] opLanes = new int[recorded.size()];
        long[][] units = new long[recorded.size()][];
        for (int i = 0; i < opLanes.length; i++) {
            opLanes[i] = recorded.get(i).lane;
            units[i] = recorded.get(i).units;
        }
        return LaneOrder.after(opLanes, units);
    }

    private void drop() {
        staged.clear();
        if (graph != null) {
            graph.close();
            graph = null;
        }
        recorded.clear();
    }

    /** Leaves the recording: queues the matched operations as they are; the step then runs as usual. */
    private void depart() {
        queueMatched();
        departed = true;
    }

    private void queueMatched() {
        waitForGraph();
        stageKept();
        for (int i = 0; i < next; i++) {
            Op op = recorded.get(i);
            switch (op.kind) {
                case LAUNCH -> device.launch(op.kernel, op.dims[0], op.dims[1], op.dims[2], op.dims[3], op.dims[4],
                        op.dims[5], op.args);
                case UPLOAD -> graph.uploadNow(i);
                case COPY -> device.copy(op.src, op.dst, op.size);
                case FILL -> device.fill32(op.dst, op.value, op.size);
            }
        }
    }

    /**
     * Whether this replayed operation matches the recording (then it is taken as the next one); else departs. An
     * operation of no bytes is never part of a graph.
     */
    private boolean matches(Kind kind, String kernel, int[] dims, long src, long dst, long size, int value) {
        if (mode != Mode.REPLAY || departed || (kind != Kind.LAUNCH && size == 0)) {
            return false;
        }
        if (next < recorded.size() && recorded.get(next).same(kind, kernel, dims, src, dst, size, value, lane)) {
            return true;
        }
        departure = "operation " + next + " of " + recorded.size() + ": " + (next < recorded.size()
                ? recorded.get(next) : "none") + " recorded, " + new Op(kind, kernel, dims, null, src, dst, size, value,
                lane, null) + " now";
        depart();
        return false;
    }

    private void record(Kind kind, String kernel, int[] dims, KernelArgs args, long src, long dst, long size,
                        int value) {
        if (mode == Mode.RECORD && (kind == Kind.LAUNCH || size > 0)) {
            long[] units = lane < 0 ? null : lanes.units(args != null ? args.addresses() : new long[] {src, dst});
            recorded.add(new Op(kind, kernel, dims, args, src, dst, size, value, lane, units));
        }
    }

    /** Departs from a replayed step before an operation that needs the work before it done ({@code what}). */
    private void barrier(String what) {
        if (mode == Mode.REPLAY && !departed) {
            departure = "operation " + next + " of " + recorded.size() + ": a " + what;
            depart();
        }
    }

    /** Waits for the launched graph, if one runs, and makes the downloads put off until it finished. */
    private void waitForGraph() {
        if (inFlight) {
            if (mode == Mode.REPLAY && !departed) {
                waitsWhileMatching++;
            }
            device.synchronize();
            inFlight = false;
            for (Read read : reads) {
                device.downloadBytes(read.src, read.dst, read.count);
            }
            reads.clear();
        }
    }

    /** Writes the kept uploads of the replayed step into their nodes' host buffers (the graph before has finished). */
    private void stageKept() {
        for (Staged s : staged) {
            graph.stage(s.node, s.floats, 0, s.bytes, s.count);
        }
        staged.clear();
    }

    /** Keeps a replayed upload's data for {@link #stageKept}, or stages it now where no graph runs. */
    private void stage(float[] floats, int offset, byte[] bytes, int count) {
        if (inFlight) {
            staged.add(floats != null ? new Staged(next, Arrays.copyOfRange(floats, offset, offset + count), null,
                    count) : new Staged(next, null, Arrays.copyOf(bytes, count), count));
        } else {
            graph.stage(next, floats, offset, bytes, count);
        }
        next++;
    }

    @Override
    public String describe() {
        return device.describe();
    }

    @Override
    public long allocate(long bytes) {
        long address = device.allocate(bytes);
        lanes.allocated(address, bytes);
        return address;
    }

    @Override
    public void free(long address) {
        barrier("free");
        waitForGraph();
        device.free(address);
        lanes.freed(address);
    }

    @Override
    public void upload(float[] src, int srcOffset, long dst, int count) {
        if (matches(Kind.UPLOAD, null, null, 0, dst, 4L * count, 0)) {
            stage(src, srcOffset, null, count);
            return;
        }
        finishReads();
        device.upload(src, srcOffset, dst, count);
        record(Kind.UPLOAD, null, null, null, 0, dst, 4L * count, 0);
    }

    @Override
    public void uploadBytes(byte[] src, long dst, int count) {
        if (matches(Kind.UPLOAD, null, null, 0, dst, count, 0)) {
            stage(null, 0, src, count);
            return;
        }
        finishReads();
        device.uploadBytes(src, dst, count);
        record(Kind.UPLOAD, null, null, null, 0, dst, count, 0);
    }

    @Override
    public void download(long src, float[] dst, int dstOffset, int count) {
        barrier("download");
        waitForGraph();
        device.download(src, dst, dstOffset, count);
    }

    @Override
    public void downloadBytes(long src, byte[] dst, int count) {
        barrier("download");
        waitForGraph();
        device.downloadBytes(src, dst, count);
    }

    @Override
    public void copy(long src, long dst, long bytes) {
        if (matches(Kind.COPY, null, null, src, dst, bytes, 0)) {
            next++;
            return;
        }
        finishReads();
        device.copy(src, dst, bytes);
        record(Kind.COPY, null, null, null, src, dst, bytes, 0);
    }

    @Override
    public void fill32(long dst, int value, long count) {
        if (matches(Kind.FILL, null, null, 0, dst, count, value)) {
            next++;
            return;
        }
        finishReads();
        device.fill32(dst, value, count);
        record(Kind.FILL, null, null, null, 0, dst, count, value);
    }

    @Override
    public void launch(String kernel, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                       KernelArgs args) {
        int[] dims = {gridX, gridY, gridZ, blockX, blockY, blockZ};
        if (matches(Kind.LAUNCH, kernel, dims, 0, 0, 0, 0)) {
            Op op = recorded.get(next);
            if (op.lane >= 0 && !op.args.sameAs(args) && !Arrays.equals(op.units, lanes.units(args.addresses()))) {
                // other memory than recorded: the graph's waits were worked out for that memory
                departure = "operation " + next + " of " + recorded.size() + ": " + op + " in lane " + op.lane
                        + " touches other memory than recorded";
                depart();
            } else if (op.args.sameAs(args) || changeArgs(kernel, dims, args)) {
                op.args = args;
                next++;
                return;
            }
        }
        finishReads();
        device.launch(kernel, gridX, gridY, gridZ, blockX, blockY, blockZ, args);
        record(Kind.LAUNCH, kernel, dims, args, 0, 0, 0, 0);
    }

    @Override
    public DeviceGraph newGraph() {
        return device.newGraph();
    }

    @Override
    public void synchronize() {
        // inside a replayed step nothing of it is queued yet; what was queued before is waited for as usual
        waitForGraph();
        device.synchronize();
    }

    @Override
    public void close() {
        mode = Mode.EAGER;
        drop();
        device.close();
    }
}
