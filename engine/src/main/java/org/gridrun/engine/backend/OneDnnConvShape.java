package org.gridrun.engine.backend;

import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DIFF_DST;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DIFF_SRC;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DIFF_WEIGHTS;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DST;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_FROM;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_SRC;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_TO;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_WEIGHTS;

import java.util.ArrayList;
import java.util.List;
import org.bytedeco.dnnl.IntMemoryMap;
import org.bytedeco.dnnl.convolution_backward_data;
import org.bytedeco.dnnl.convolution_backward_weights;
import org.bytedeco.dnnl.convolution_forward;
import org.bytedeco.dnnl.engine;
import org.bytedeco.dnnl.global.dnnl.algorithm;
import org.bytedeco.dnnl.global.dnnl.prop_kind;
import org.bytedeco.dnnl.memory;
import org.bytedeco.dnnl.primitive;
import org.bytedeco.dnnl.reorder;
import org.bytedeco.dnnl.stream;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

/**
 * oneDNN's primitives for one convolution shape (geometry, images, filters), created once and reused: the forward
 * convolution and, on first need, the weight and data gradients, each with the reorders between gridrun's weight
 * layout ({@code ohwi}: filter, kernel row, kernel column, input channel) and the blocked one oneDNN picks for it.
 *
 * <p>Images and outputs, and their gradients, are {@code nhwc} in the backend's off-heap scratch, whose addresses
 * each call passes in.
 */
final class OneDnnConvShape implements AutoCloseable {
    private final engine cpu = OneDnn.cpu();
    private final stream stream;
    private final List<Pointer> owned = new ArrayList<>();
    private final memory.desc src;
    private final memory.desc dst;
    private final memory.desc userWeights;
    private final LongPointer weightDims;
    private final int weightCount;
    private final LongPointer strides;
    private final LongPointer padding;
    private final convolution_forward.primitive_desc forwardDesc;
    private final primitive forward;
    private final memory srcMemory;
    private final memory dstMemory;
    private final memory userWeightMemory;
    private final FloatPointer userWeightValues;
    private final primitive weightsIn;
    private final IntMemoryMap forwardArgs = keep(new IntMemoryMap());
    private final IntMemoryMap weightsInArgs = keep(new IntMemoryMap());
    private primitive weightGradient;
    private primitive weightsOut;
    private final IntMemoryMap gradientArgs = keep(new IntMemoryMap());
    private final IntMemoryMap weightsOutArgs = keep(new IntMemoryMap());
    private primitive dataGradient;
    private primitive dataWeightsIn;
    private final IntMemoryMap dataGradientArgs = keep(new IntMemoryMap());
    private final IntMemoryMap dataWeightsInArgs = keep(new IntMemoryMap());

    /** The primitives of this shape, run on {@code stream}. */
    OneDnnConvShape(ConvGeometry g, int images, int filters, stream stream) {
        this.stream = stream;
        src = keep(new memory.desc(dims(images, g.channels(), g.height(), g.width()), memory.data_type.f32,
                memory.format_tag.nhwc));
        dst = keep(new memory.desc(dims(images, filters, g.outHeight(), g.outWidth()), memory.data_type.f32,
                memory.format_tag.nhwc));
        weightDims = dims(filters, g.channels(), g.kernelHeight(), g.kernelWidth());
        weightCount = filters * g.patchSize();
        userWeights = keep(new memory.desc(weightDims, memory.data_type.f32, memory.format_tag.ohwi));
        memory.desc anyWeights = keep(new memory.desc(weightDims, memory.data_type.f32, memory.format_tag.any));
        strides = dims(g.stride(), g.stride());
        padding = dims(g.padding(), g.padding());
        forwardDesc = keep(new convolution_forward.primitive_desc(cpu, prop_kind.forward_training,
                algorithm.convolution_direct, src, anyWeights, keep(new memory.desc()), dst, strides, padding,
                padding));
        forward = keep(new convolution_forward(forwardDesc));
        srcMemory = keep(new memory(src, cpu, (Pointer) null));
        dstMemory = keep(new memory(dst, cpu, (Pointer) null));
        userWeightMemory = keep(new memory(userWeights, cpu));
        userWeightValues = keep(new FloatPointer(userWeightMemory.get_data_handle()));
        memory weights = keep(new memory(forwardDesc.weights_desc(), cpu));
        weightsIn = keep(new reorder(userWeightMemory, weights));
        weightsInArgs.put(DNNL_ARG_FROM, userWeightMemory).put(DNNL_ARG_TO, weights);
        forwardArgs.put(DNNL_ARG_SRC, srcMemory).put(DNNL_ARG_WEIGHTS, weights).put(DNNL_ARG_DST, dstMemory);
    }

    /** {@code y = x ⊛ w}: x at {@code x}'s address, w from the heap, y to {@code y}'s address. */
    void forward(Pointer x, float[] w, int wo, Pointer y) {
        withWeights(w, wo, x, y, weightsIn, weightsInArgs, forward, forwardArgs);
    }

    /** {@code dw = ∂(x ⊛ w)/∂w · dy}: x and dy at their addresses, dw to the heap. */
    void weightGradient(Pointer x, Pointer dy, float[] dw, int dwo) {
        if (weightGradient == null) {
            createWeightGradient();
        }
        srcMemory.set_data_handle(x);
        dstMemory.set_data_handle(dy);
        weightGradient.execute(stream, gradientArgs);
        weightsOut.execute(stream, weightsOutArgs);
        stream._wait();
        userWeightValues.position(0).get(dw, dwo, weightCount);
    }

    private void createWeightGradient() {
        memory.desc anyWeights = keep(new memory.desc(weightDims, memory.data_type.f32,
                memory.format_tag.any));
        convolution_backward_weights.primitive_desc desc = keep(new convolution_backward_weights.primitive_desc(cpu,
                algorithm.convolution_direct, src, anyWeights, keep(new memory.desc()), dst, strides, padding,
                padding, forwardDesc));
        memory gradient = keep(new memory(desc.diff_weights_desc(), cpu));
        weightGradient = keep(new convolution_backward_weights(desc));
        weightsOut = keep(new reorder(gradient, userWeightMemory));
        gradientArgs.put(DNNL_ARG_SRC, srcMemory).put(DNNL_ARG_DIFF_DST, dstMemory)
                .put(DNNL_ARG_DIFF_WEIGHTS, gradient);
        weightsOutArgs.put(DNNL_ARG_FROM, gradient).put(DNNL_ARG_TO, userWeightMemory);
    }

    /** {@code dx = ∂(x ⊛ w)/∂x · dy}: dy at its address, w from the heap, dx to {@code dx}'s address. */
    void dataGradient(Pointer dy, float[] w, int wo, Pointer dx) {
        if (dataGradient == null) {
            createDataGradient();
        }
        withWeights(w, wo, dx, dy, dataWeightsIn, dataWeightsInArgs, dataGradient, dataGradientArgs);
    }

    /**
     * Runs {@code step} on w from the heap, reordered by {@code reorderIn} into the layout {@code step} takes, with
     * the image side at {@code image} and the output side at {@code output}.
     */
    private void withWeights(float[] w, int wo, Pointer image, Pointer output, primitive reorderIn,
                             IntMemoryMap reorderArgs, primitive step, IntMemoryMap stepArgs) {
        userWeightValues.position(0).put(w, wo, weightCount);
        srcMemory.set_data_handle(image);
        dstMemory.set_data_handle(output);
        reorderIn.execute(stream, reorderArgs);
        step.execute(stream, stepArgs);
        stream._wait();
    }

    private void createDataGradient() {
        memory.desc anyWeights = keep(new memory.desc(weightDims, memory.data_type.f32, memory.format_tag.any));
        convolution_backward_data.primitive_desc desc = keep(new convolution_backward_data.primitive_desc(cpu,
                algorithm.convolution_direct, src, anyWeights, dst, strides, padding, padding, forwardDesc));
        memory weights = keep(new memory(desc.weights_desc(), cpu));
        dataGradient = keep(new convolution_backward_data(desc));
        dataWeightsIn = keep(new reorder(userWeightMemory, weights));
        dataWeightsInArgs.put(DNNL_ARG_FROM, userWeightMemory).put(DNNL_ARG_TO, weights);
        dataGradientArgs.put(DNNL_ARG_DIFF_DST, dstMemory).put(DNNL_ARG_WEIGHTS, weights)
                .put(DNNL_ARG_DIFF_SRC, srcMemory);
    }

    private LongPointer dims(long... values) {
        return keep(new LongPointer(values));
    }

    private <T extends Pointer> T keep(T pointer) {
        owned.add(pointer);
        return pointer;
    }

    @Override
    public void close() {
        for (int i = owned.size() - 1; i >= 0; i--) {
            owned.get(i).close();
        }
        owned.clear();
    }
}
