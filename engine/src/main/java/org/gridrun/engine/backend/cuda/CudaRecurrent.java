package org.gridrun.engine.backend.cuda;

/**
 * The kernels of sequence models on the GPU ({@code recurrent.cu}): the embedding lookup and its backward pass, and
 * the LSTM cell; sizes were checked by the caller and are positive.
 */
final class CudaRecurrent {
    private final Gpu gpu;

    CudaRecurrent(Gpu gpu) {
        this.gpu = gpu;
    }

    /** See {@code Backend#embedding}: m rows of e values from a table of v rows. */
    void embedding(long table, long ids, long out, int m, int e, int v) {
        Launches.linear(gpu, "gr_seq_embedding", (long) m * e, KernelArgs.of().address(table).address(ids)
                .address(out).i32(m).i32(e).i32(v));
    }

    /**
     * See {@code Backend#embeddingBackward}: the rows in order, each column's table rows split by id among
     * {@link #embeddingParts} threads (a thread per column alone walked a language model's 1,920 rows of 650
     * columns on 650 threads, one dependent read-modify-write after another).
     */
    void embeddingBackward(long dy, long ids, long dTable, int m, int e, int v) {
        int parts = embeddingParts(m, v);
        Launches.linear(gpu, "gr_seq_embedding_backward", (long) e * parts, KernelArgs.of().address(dy).address(ids)
                .address(dTable).i32(m).i32(e).i32(v).i32(parts));
    }

    /** Threads per column of the embedding's backward pass: one per 16 rows, at most 64, at most one per id. */
    static int embeddingParts(int m, int v) {
        return Math.max(1, Math.min(Math.min(64, v), (m + 15) / 16));
    }

    /** See {@code Backend#lstmCell}. */
    void lstmCell(long gates, long cPrev, long c, long h, int rows, int units) {
        Launches.linear(gpu, "gr_seq_lstm_cell", (long) rows * units, KernelArgs.of().address(gates)
                .address(cPrev).address(c).address(h).i32(rows).i32(units));
    }

    /** See {@code Backend#lstmCellBackward}. */
    void lstmCellBackward(long gates, long cPrev, long c, long dh, long dc, long dGates, int rows, int units) {
        Launches.linear(gpu, "gr_seq_lstm_cell_backward", (long) rows * units, KernelArgs.of().address(gates)
                .address(cPrev).address(c).address(dh).address(dc).address(dGates).i32(rows).i32(units));
    }
}
