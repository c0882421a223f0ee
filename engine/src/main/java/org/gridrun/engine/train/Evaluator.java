package org.gridrun.engine.train;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.data.BatchAssembler;
import org.gridrun.engine.data.DataThreads;
import org.gridrun.engine.data.ImageData;
import org.gridrun.engine.model.Evaluation;
import org.gridrun.engine.model.Model;

/**
 * Measures a model on a whole data set, in chunks.
 *
 * <p>A data set in memory is uploaded to the backend once and evaluated in chunks of {@link #CHUNK} images whose views
 * are made at construction, so an evaluation allocates nothing but its result. A data set decoded from files
 * (ImageNet's 50,000 validation images would take 30 GB as floats) is streamed instead: chunks of the workspace's
 * rows are assembled on the data threads, the next while the current one is evaluated, and uploaded one by one.
 */
final class Evaluator implements AutoCloseable {
    static final int CHUNK = 1000;

    private final Model model;
    private final ImageData data;
    private final Tensor x;
    private final Tensor y;
    private final Tensor[] chunksX;
    private final Tensor[] chunksY;
    private final Model.Workspace workspace;
    private final boolean ownsWorkspace;
    private final Backend backend;
    private final BatchAssembler assembler;
    private final float[] hostX;
    private final float[] hostY;

    /** An evaluator of a data set in memory, with a workspace of its own. */
    Evaluator(Backend backend, Model model, ImageData data) {
        this(backend, model, data, DataThreads.inline(), null);
    }

    /**
     * An evaluator of {@code data}; one decoded from files is streamed on {@code threads} through {@code shared}
     * (another user's workspace, which it does not close), or a workspace of its own of up to {@link #CHUNK} rows
     * when {@code shared} is null.
     */
    Evaluator(Backend backend, Model model, ImageData data, DataThreads threads, Model.Workspace shared) {
        this.backend = backend;
        this.model = model;
        this.data = data;
        int n = data.size();
        boolean stream = data.decodesOnDemand();
        this.ownsWorkspace = !stream || shared == null;
        this.workspace = ownsWorkspace ? model.newWorkspace(Math.max(1, Math.min(CHUNK, n))) : shared;
        if (stream) {
            int rows = Math.min(n, workspace.capacity());
            this.assembler = new BatchAssembler(data, rows, 2, threads, 0, 0);
            this.hostX = new float[rows * data.features()];
            this.hostY = new float[rows];
            this.x = backend.allocate(rows, data.features());
            this.y = backend.allocate(rows, 1);
            this.chunksX = null;
            this.chunksY = null;
            return;
        }
        this.assembler = null;
        this.hostX = null;
        this.hostY = null;
        float[] allX = new float[n * data.features()];
        float[] allY = new float[n];
        for (int i = 0; i < n; i++) {
            data.copyImage(i, i, allX, allY);
        }
        this.x = backend.allocate(n, data.features());
        this.y = backend.allocate(n, 1);
        backend.upload(allX, 0, x);
        backend.upload(allY, 0, y);
        int chunks = (n + CHUNK - 1) / CHUNK;
        this.chunksX = new Tensor[chunks];
        this.chunksY = new Tensor[chunks];
        for (int c = 0; c < chunks; c++) {
            int rows = Math.min(CHUNK, n - c * CHUNK);
            chunksX[c] = x.rowRange(c * CHUNK, rows);
            chunksY[c] = y.rowRange(c * CHUNK, rows);
        }
    }

    /** The model's loss and accuracy on the whole data set. */
    Evaluation evaluate() {
        if (assembler != null) {
            return streamed();
        }
        Evaluation total = Evaluation.EMPTY;
        for (int c = 0; c < chunksX.length; c++) {
            total = total.plus(model.evaluate(workspace, chunksX[c], chunksY[c]));
        }
        return total;
    }

    private Evaluation streamed() {
        int n = data.size();
        int rows = x.rows();
        int[] indices = new int[rows];
        int submitted = 0;
        Evaluation total = Evaluation.EMPTY;
        try {
            for (int done = 0; done < n; ) {
                while (submitted < n && assembler.room() > 0) {
                    int count = Math.min(rows, n - submitted);
                    for (int r = 0; r < count; r++) {
                        indices[r] = submitted + r;
                    }
                    assembler.submit(indices, count, -1);
                    submitted += count;
                }
                int count = assembler.take(hostX, hostY);
                Tensor cx = count == rows ? x : x.rowRange(0, count);
                Tensor cy = count == rows ? y : y.rowRange(0, count);
                backend.upload(hostX, 0, cx);
                backend.upload(hostY, 0, cy);
                total = total.plus(model.evaluate(workspace, cx, cy));
                done += count;
            }
        } finally {
            assembler.cancel();
        }
        return total;
    }

    @Override
    public void close() {
        if (assembler != null) {
            assembler.close();
        }
        if (ownsWorkspace) {
            workspace.close();
        }
        x.close();
        y.close();
    }
}
