package org.gridrun.engine.train;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.data.LanguageBatches;
import org.gridrun.engine.data.TokenStream;
import org.gridrun.engine.model.Evaluation;
import org.gridrun.engine.model.Model;

/**
 * Measures a language model on a whole evaluation text: cut into {@code eval_batch_size} sequences, read in windows
 * of {@code bptt} steps (the last one shorter) with the model's state carried from one window to the next, starting
 * from zero; every token but each sequence's last is predicted once. Its mean loss is the exponent of the
 * perplexity.
 */
final class TextEvaluator implements AutoCloseable {
    private final Backend backend;
    private final Model model;
    private final LanguageBatches windows;
    private final Model.Workspace workspace;
    private final Tensor state;
    private final Tensor x;
    private final Tensor y;
    private final float[] hostX;
    private final float[] hostY;

    TextEvaluator(Backend backend, Model model, TokenStream text, int sequences, int bptt) {
        this.backend = backend;
        this.model = model;
        int columns = Math.max(1, Math.min(sequences, text.length() / 2));
        this.windows = new LanguageBatches(text, columns, 0, columns, bptt);
        int rows = windows.rows();
        this.workspace = model.newWorkspace(rows);
        this.state = backend.allocate(columns, model.carriedState());
        this.x = backend.allocate(rows, 1);
        this.y = backend.allocate(rows, 1);
        this.hostX = new float[rows];
        this.hostY = new float[rows];
    }

    /** The summed loss, tokens predicted correctly and tokens of the whole text. */
    Evaluation evaluate() {
        backend.fill(state, 0f);
        workspace.carry(state);
        Evaluation total = Evaluation.EMPTY;
        for (int w = 0; w < windows.windows(); w++) {
            int rows = windows.window(w, hostX, hostY);
            Tensor cx = rows == x.rows() ? x : x.rowRange(0, rows);
            Tensor cy = rows == y.rows() ? y : y.rowRange(0, rows);
            backend.upload(hostX, 0, cx);
            backend.upload(hostY, 0, cy);
            total = total.plus(model.evaluate(workspace, cx, cy));
        }
        return total;
    }

    @Override
    public void close() {
        workspace.close();
        state.close();
        x.close();
        y.close();
    }
}
