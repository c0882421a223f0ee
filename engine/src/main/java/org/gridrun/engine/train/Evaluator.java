package org.gridrun.engine.train;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.data.Dataset;
import org.gridrun.engine.model.Evaluation;
import org.gridrun.engine.model.Model;

/**
 * Measures a model on the whole test set: uploaded to the backend once, then evaluated in chunks.
 *
 * <p>The chunk views are made at construction, so an evaluation allocates nothing but its result.
 */
final class Evaluator implements AutoCloseable {
    private static final int CHUNK = 1000;

    private final Model model;
    private final Tensor x;
    private final Tensor y;
    private final Tensor[] chunksX;
    private final Tensor[] chunksY;
    private final Model.Workspace workspace;

    Evaluator(Backend backend, Model model, Dataset test) {
        this.model = model;
        int n = test.size();
        float[] hostX = new float[n * test.features()];
        float[] hostY = new float[n];
        test.copyRows(0, n, hostX, hostY);
        this.x = backend.allocate(n, test.features());
        this.y = backend.allocate(n, 1);
        backend.upload(hostX, 0, x);
        backend.upload(hostY, 0, y);
        int chunks = (n + CHUNK - 1) / CHUNK;
        this.chunksX = new Tensor[chunks];
        this.chunksY = new Tensor[chunks];
        for (int c = 0; c < chunks; c++) {
            int rows = Math.min(CHUNK, n - c * CHUNK);
            chunksX[c] = x.rowRange(c * CHUNK, rows);
            chunksY[c] = y.rowRange(c * CHUNK, rows);
        }
        this.workspace = model.newWorkspace(Math.max(1, Math.min(CHUNK, n)));
    }

    /** The model's loss and accuracy on the whole test set. */
    Evaluation evaluate() {
        Evaluation total = Evaluation.EMPTY;
        for (int c = 0; c < chunksX.length; c++) {
            total = total.plus(model.evaluate(workspace, chunksX[c], chunksY[c]));
        }
        return total;
    }

    @Override
    public void close() {
        workspace.close();
        x.close();
        y.close();
    }
}
