package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batches of an ImageFolder are the same on data threads as inline, and continue after a restored state. */
class ImageFolderBatchesTest {
    private static final int BATCH = 4;
    private static final int FEATURES = 32 * 32 * 3;

    @TempDir
    Path dir;

    @Test
    void threadedBatchesEqualInlineOnesAndResumeExactly() throws Exception {
        ImageTrees.writeTree(dir);
        ImageFolder data = new ImageFolder("tiny", FolderIndex.scan(dir), DataOptions.DEFAULT,
                ImageDecoders.best(), 32, 36);
        float[][] inline = new float[6][];
        float[][] labels = new float[6][];
        try (Batches batches = new Batches(data, BATCH, 7, 1, DataThreads.inline())) {
            for (int b = 0; b < 6; b++) {
                inline[b] = new float[BATCH * FEATURES];
                labels[b] = new float[BATCH];
                batches.next(inline[b], labels[b]);
            }
        }
        byte[] state;
        try (DataThreads threads = DataThreads.of(2);
             Batches batches = new Batches(data, BATCH, 7, 1, threads)) {
            float[] x = new float[BATCH * FEATURES];
            float[] y = new float[BATCH];
            for (int b = 0; b < 3; b++) {
                batches.next(x, y);
                assertArrayEquals(inline[b], x, "batch " + b);
                assertArrayEquals(labels[b], y, "labels of batch " + b);
            }
            ByteArrayOutputStream saved = new ByteArrayOutputStream();
            batches.saveState(new DataOutputStream(saved));
            state = saved.toByteArray();
        }
        try (DataThreads threads = DataThreads.of(2);
             Batches batches = new Batches(data, BATCH, 7, 1, threads)) {
            batches.restoreState(new DataInputStream(new ByteArrayInputStream(state)));
            float[] x = new float[BATCH * FEATURES];
            float[] y = new float[BATCH];
            for (int b = 3; b < 6; b++) {
                batches.next(x, y);
                assertArrayEquals(inline[b], x, "batch " + b + " after restoring");
                assertArrayEquals(labels[b], y, "labels of batch " + b + " after restoring");
            }
        }
    }
}
