package org.gridrun.engine.backend;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bytedeco.javacpp.Pointer;

/**
 * Convolutions on oneDNN: each shape's primitives made once ({@link OneDnnConvShape}), the operands copied between
 * the Java heap and two off-heap buffers around each call.
 *
 * <p>The primitives of the {@value #SHAPES} shapes used last are kept (a network's layers and a second batch size
 * for the last, smaller batch or evaluation); an older one is released when a new one comes.
 */
final class OneDnnConvolution implements Convolver {
    static final int SHAPES = 96;

    private record Key(ConvGeometry g, int images, int filters) {
    }

    private final OneDnnScratch input = new OneDnnScratch();
    private final OneDnnScratch output = new OneDnnScratch();
    private final Map<Key, OneDnnConvShape> shapes = new LinkedHashMap<>(16, 0.75f, true);

    @Override
    public void forward(float[] x, int xo, ConvGeometry g, int images, float[] w, int wo, int filters, float[] y,
                        int yo) {
        OneDnnConvShape shape = shape(g, images, filters);
        Pointer in = input.copyIn(x, xo, images * g.inputSize());
        int outValues = images * g.outPositions() * filters;
        shape.forward(in, w, wo, output.ensure(outValues));
        output.copyOut(y, yo, outValues);
    }

    @Override
    public void weightGradient(float[] x, int xo, ConvGeometry g, int images, float[] dy, int dyo, int filters,
                               float[] dw, int dwo) {
        OneDnnConvShape shape = shape(g, images, filters);
        Pointer in = input.copyIn(x, xo, images * g.inputSize());
        Pointer gradient = output.copyIn(dy, dyo, images * g.outPositions() * filters);
        shape.weightGradient(in, gradient, dw, dwo);
    }

    private OneDnnConvShape shape(ConvGeometry g, int images, int filters) {
        Key key = new Key(g, images, filters);
        OneDnnConvShape shape = shapes.get(key);
        if (shape == null) {
            if (shapes.size() >= SHAPES) {
                var eldest = shapes.entrySet().iterator();
                eldest.next().getValue().close();
                eldest.remove();
            }
            shape = new OneDnnConvShape(g, images, filters);
            shapes.put(key, shape);
        }
        return shape;
    }
}
