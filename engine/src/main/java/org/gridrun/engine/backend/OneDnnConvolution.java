package org.gridrun.engine.backend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.dnnl.stream;
import org.bytedeco.javacpp.Pointer;

/**
 * Convolutions on oneDNN, one thread per call: the batch is cut in two halves by image, one per thread of the
 * backend ({@link CpuParallel}), each half a oneDNN call of its own on its own primitives, stream and off-heap
 * buffers, so that two backends may run at once.
 *
 * <p>oneDNN's own OpenMP threads synchronise at barriers by spinning, and a 2-core machine shared with other work
 * took four times as long per convolution with two of them as with one; the backend's threads wait for each other
 * once per call. The data gradient of each half is its own; the weight gradient of the second half goes to a
 * scratch matrix added to the first half's last, so the order of summation depends only on the shapes. Each
 * shape's primitives ({@link OneDnnConvShape}) are made once; those of the {@value #SHAPES} shapes used last are
 * kept (a network's layers, and the smaller last batch or an evaluation batch), an older one released when a new one
 * comes, and all when the backend closes. Operands are copied between the heap and the off-heap buffers around each
 * call.
 *
 * <p>The data gradient on oneDNN's backward-data primitive, in place of the flipped kernels' forward convolution or
 * a product and col2im outside oneDNN, took resnet20's at batch 128 from 41.3 to 39.5 ms a step (best of 15,
 * interleaved in one JVM on a shared 2-core machine): its two stride-2 convolutions 25–30 % faster, the stride-1
 * ones as fast as before.
 */
final class OneDnnConvolution implements Convolver {
    static final int SHAPES = 128;

    private record Key(ConvGeometry g, int images, int filters, int half) {
    }

    private final OneDnnScratch[] inputs = {new OneDnnScratch(), new OneDnnScratch()};
    private final OneDnnScratch[] outputs = {new OneDnnScratch(), new OneDnnScratch()};
    private final OneDnnScratch[] scratchpads = {new OneDnnScratch(), new OneDnnScratch()};
    /** Each half's oneDNN stream, made on first need: a stream is not to be used by two threads at once. */
    private final stream[] streams = new stream[2];
    private final Map<Key, OneDnnConvShape> shapes = new LinkedHashMap<>(16, 0.75f, true);
    private float[] partial = new float[0];

    @Override
    public void forward(float[] x, int xo, ConvGeometry g, int images, float[] w, int wo, int filters, float[] y,
                        int yo) {
        int outImage = g.outPositions() * filters;
        CpuParallel.forEach(images, work(g, images, filters), (from, to) -> {
            int half = from == 0 ? 0 : 1;
            OneDnnConvShape shape = shape(g, to - from, filters, half);
            Pointer in = inputs[half].copyIn(x, xo + from * g.inputSize(), (to - from) * g.inputSize());
            shape.forward(in, w, wo, outputs[half].ensure((long) (to - from) * outImage));
            outputs[half].copyOut(y, yo + from * outImage, (to - from) * outImage);
        });
    }

    @Override
    public void weightGradient(float[] x, int xo, ConvGeometry g, int images, float[] dy, int dyo, int filters,
                               float[] dw, int dwo) {
        backward(x, xo, g, images, dy, dyo, null, 0, filters, dw, dwo, null, 0);
    }

    @Override
    public void dataGradient(float[] dy, int dyo, ConvGeometry g, int images, float[] w, int wo, int filters,
                             float[] dx, int dxo) {
        int outImage = g.outPositions() * filters;
        CpuParallel.forEach(images, work(g, images, filters), (from, to) -> {
            int half = from == 0 ? 0 : 1;
            OneDnnConvShape shape = shape(g, to - from, filters, half);
            Pointer gradient = outputs[half].copyIn(dy, dyo + from * outImage, (to - from) * outImage);
            shape.dataGradient(gradient, w, wo, inputs[half].ensure((long) (to - from) * g.inputSize()));
            inputs[half].copyOut(dx, dxo + from * g.inputSize(), (to - from) * g.inputSize());
        });
    }

    /**
     * The weight gradient from each half's copies of x and dy, then, where {@code dx} is not null, the data gradient
     * from the same copy of dy into the buffer that held x: dy crosses to oneDNN once for both.
     */
    @Override
    public void backward(float[] x, int xo, ConvGeometry g, int images, float[] dy, int dyo, float[] w, int wo,
                         int filters, float[] dw, int dwo, float[] dx, int dxo) {
        int weights = filters * g.patchSize();
        if (partial.length < weights) {
            partial = new float[weights];
        }
        int outImage = g.outPositions() * filters;
        long work = work(g, images, filters);
        CpuParallel.forEach(images, work, (from, to) -> {
            int half = from == 0 ? 0 : 1;
            OneDnnConvShape shape = shape(g, to - from, filters, half);
            Pointer in = inputs[half].copyIn(x, xo + from * g.inputSize(), (to - from) * g.inputSize());
            Pointer gradient = outputs[half].copyIn(dy, dyo + from * outImage, (to - from) * outImage);
            shape.weightGradient(in, gradient, half == 0 ? dw : partial, half == 0 ? dwo : 0);
            if (dx != null) {
                shape.dataGradient(gradient, w, wo, inputs[half].ensure((long) (to - from) * g.inputSize()));
                inputs[half].copyOut(dx, dxo + from * g.inputSize(), (to - from) * g.inputSize());
            }
        });
        if (CpuParallel.splits(images, work)) {
            for (int i = 0; i < weights; i++) {
                dw[dwo + i] += partial[i];
            }
        }
    }

    /** The floats the scratchpad buffer of thread {@code half} holds now: what its primitives asked for at most. */
    int scratchpadFloats(int half) {
        return (int) scratchpads[half].capacity();
    }

    /** Releases every shape's primitives, the streams and the off-heap buffers; a later call creates them again. */
    @Override
    public void close() {
        synchronized (shapes) {
            shapes.values().forEach(OneDnnConvShape::close);
            shapes.clear();
            for (int half = 0; half < streams.length; half++) {
                if (streams[half] != null) {
                    streams[half].close();
                    streams[half] = null;
                }
            }
        }
        for (OneDnnScratch[] buffers : List.of(inputs, outputs, scratchpads)) {
            for (OneDnnScratch buffer : buffers) {
                buffer.close();
            }
        }
    }

    private static long work(ConvGeometry g, int images, int filters) {
        return (long) images * g.outPositions() * g.patchSize() * filters;
    }

    /** The primitives of one half's shape; the two halves' never meet, as they may run at once. */
    private OneDnnConvShape shape(ConvGeometry g, int images, int filters, int half) {
        Key key = new Key(g, images, filters, half);
        synchronized (shapes) {
            OneDnnConvShape shape = shapes.get(key);
            if (shape == null) {
                if (shapes.size() >= SHAPES) {
                    var eldest = shapes.entrySet().iterator();
                    eldest.next().getValue().close();
                    eldest.remove();
                }
                if (streams[half] == null) {
                    streams[half] = new stream(OneDnn.cpu());
                }
                shape = new OneDnnConvShape(g, images, filters, streams[half], scratchpads[half]);
                shapes.put(key, shape);
            }
            return shape;
        }
    }
}
