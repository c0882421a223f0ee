package org.gridrun.engine.backend;

import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DIFF_DST;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DIFF_SRC;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DIFF_WEIGHTS;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_DST;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_FROM;
import static org.bytedeco.dnnl.global.dnnl.DNNL_ARG_SCRATCHPAD;
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
import org.bytedeco.dnnl.global.dnnl.scratchpad_mode;
import org.bytedeco.dnnl.memory;
import org.bytedeco.dnnl.primitive;
import org.bytedeco.dnnl.primitive_attr;
import org.bytedeco.dnnl.primitive_desc_base;
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
 *
 * <p>Every primitive takes its scratchpad from {@code scratchpad}, the buffer of the backend thread that runs this
 * shape ({@code scratchpad_mode::user}). oneDNN's default, a library scratchpad, is one buffer per thread, sized by
 * the primitives created on that thread and released when its count of them comes to zero; the count goes down on
 * whichever thread destroys a primitive (JavaCPP's deallocator, an evicting thread), and a primitive run on another
 * thread than its own uses that thread's buffer, whatever its size. oneDNN documents such primitives as not to
 * migrate between threads; with their own buffers they may.
 *
 * <p>Primitives are created under {@link OneDnn#CREATION}, one at a time in the process: see there why.
 */
final class OneDnnConvShape implements AutoCloseable {
    private final engine cpu = OneDnn.cpu();
    private final stream stream;
    private final OneDnnScratch scratchpad;
    private final List<Pointer> owned = new ArrayList<>();
    private final primitive_attr attributes = keep(new primitive_attr());
    private final memory.desc src;
    private final memory.desc dst;
    private final LongPointer weightDims;
    private final int weightCount;
    private final LongPointer strides;
    private final LongPointer padding;
    private final convolution_forward.primitive_desc forwardDesc;
    private final memory srcMemory;
    private final memory dstMemory;
    private final memory userWeightMemory;
    private final FloatPointer userWeightValues;
    private final Step weightsIn;
    private final Step forward;
    private Step weightGradient;
    private Step weightsOut;
    private Step dataWeightsIn;
    private Step dataGradient;

    /** The primitives of this shape, run on {@code stream} with their scratchpads in {@code scratchpad}. */
    OneDnnConvShape(ConvGeometry g, int images, int filters, stream stream, OneDnnScratch scratchpad) {
        this.stream = stream;
        this.scratchpad = scratchpad;
        attributes.set_scratchpad_mode(scratchpad_mode.user);
        src = keep(new memory.desc(dims(images, g.channels(), g.height(), g.width()), memory.data_type.f32,
                memory.format_tag.nhwc));
        dst = keep(new memory.desc(dims(images, filters, g.outHeight(), g.outWidth()), memory.data_type.f32,
                memory.format_tag.nhwc));
        weightDims = dims(filters, g.channels(), g.kernelHeight(), g.kernelWidth());
        weightCount = filters * g.patchSize();
        memory.desc userWeights = keep(new memory.desc(weightDims, memory.data_type.f32, memory.format_tag.ohwi));
        strides = dims(g.stride(), g.stride());
        padding = dims(g.padding(), g.padding());
        srcMemory = keep(new memory(src, cpu, (Pointer) null));
        dstMemory = keep(new memory(dst, cpu, (Pointer) null));
        userWeightMemory = keep(new memory(userWeights, cpu));
        userWeightValues = keep(new FloatPointer(userWeightMemory.get_data_handle()));
        synchronized (OneDnn.CREATION) {
            forwardDesc = keep(new convolution_forward.primitive_desc(cpu, prop_kind.forward_training,
                    algorithm.convolution_direct, src, anyWeights(), keep(new memory.desc()), dst, strides, padding,
                    padding, attributes, false));
            memory weights = keep(new memory(forwardDesc.weights_desc(), cpu));
            weightsIn = reorder(userWeightMemory, weights);
            forward = new Step(forwardDesc, keep(new convolution_forward(forwardDesc)))
                    .with(DNNL_ARG_SRC, srcMemory).with(DNNL_ARG_WEIGHTS, weights).with(DNNL_ARG_DST, dstMemory);
        }
    }

    /** {@code y = x ⊛ w}: x at {@code x}'s address, w from the heap, y to {@code y}'s address. */
    void forward(Pointer x, float[] w, int wo, Pointer y) {
        withWeights(w, wo, x, y, weightsIn, forward);
    }

    /** {@code dw = ∂(x ⊛ w)/∂w · dy}: x and dy at their addresses, dw to the heap. */
    void weightGradient(Pointer x, Pointer dy, float[] dw, int dwo) {
        if (weightGradient == null) {
            createWeightGradient();
        }
        srcMemory.set_data_handle(x);
        dstMemory.set_data_handle(dy);
        weightGradient.run();
        weightsOut.run();
        stream._wait();
        userWeightValues.position(0).get(dw, dwo, weightCount);
    }

    private void createWeightGradient() {
        synchronized (OneDnn.CREATION) {
            convolution_backward_weights.primitive_desc desc = keep(new convolution_backward_weights.primitive_desc(
                    cpu, algorithm.convolution_direct, src, anyWeights(), keep(new memory.desc()), dst, strides,
                    padding, padding, forwardDesc, attributes, false));
            memory gradient = keep(new memory(desc.diff_weights_desc(), cpu));
            weightGradient = new Step(desc, keep(new convolution_backward_weights(desc))).with(DNNL_ARG_SRC, srcMemory)
                    .with(DNNL_ARG_DIFF_DST, dstMemory).with(DNNL_ARG_DIFF_WEIGHTS, gradient);
            weightsOut = reorder(gradient, userWeightMemory);
        }
    }

    /** {@code dx = ∂(x ⊛ w)/∂x · dy}: dy at its address, w from the heap, dx to {@code dx}'s address. */
    void dataGradient(Pointer dy, float[] w, int wo, Pointer dx) {
        if (dataGradient == null) {
            createDataGradient();
        }
        withWeights(w, wo, dx, dy, dataWeightsIn, dataGradient);
    }

    /**
     * Runs {@code step} on w from the heap, reordered by {@code reorderIn} into the layout {@code step} takes, with
     * the image side at {@code image} and the output side at {@code output}.
     */
    private void withWeights(float[] w, int wo, Pointer image, Pointer output, Step reorderIn, Step step) {
        userWeightValues.position(0).put(w, wo, weightCount);
        srcMemory.set_data_handle(image);
        dstMemory.set_data_handle(output);
        reorderIn.run();
        step.run();
        stream._wait();
    }

    private void createDataGradient() {
        synchronized (OneDnn.CREATION) {
            convolution_backward_data.primitive_desc desc = keep(new convolution_backward_data.primitive_desc(cpu,
                    algorithm.convolution_direct, src, anyWeights(), dst, strides, padding, padding, forwardDesc,
                    attributes, false));
            memory weights = keep(new memory(desc.weights_desc(), cpu));
            dataWeightsIn = reorder(userWeightMemory, weights);
            dataGradient = new Step(desc, keep(new convolution_backward_data(desc))).with(DNNL_ARG_DIFF_DST, dstMemory)
                    .with(DNNL_ARG_WEIGHTS, weights).with(DNNL_ARG_DIFF_SRC, srcMemory);
        }
    }

    /** The weights' shape in the layout oneDNN picks for a primitive. */
    private memory.desc anyWeights() {
        return keep(new memory.desc(weightDims, memory.data_type.f32, memory.format_tag.any));
    }

    /** A reorder of {@code from} into {@code to}. */
    private Step reorder(memory from, memory to) {
        reorder.primitive_desc desc = keep(new reorder.primitive_desc(from, to, attributes, false));
        return new Step(desc, keep(new reorder(desc))).with(DNNL_ARG_FROM, from).with(DNNL_ARG_TO, to);
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

    /** A primitive, its arguments, and the scratchpad it asks for, backed by {@link #scratchpad} as it runs. */
    private final class Step {
        private final primitive primitive;
        private final IntMemoryMap arguments = keep(new IntMemoryMap());
        private final memory scratch;
        private final long scratchFloats;

        Step(primitive_desc_base desc, primitive primitive) {
            this.primitive = primitive;
            memory.desc scratchDesc = keep(desc.scratchpad_desc());
            scratchFloats = (scratchDesc.get_size() + Float.BYTES - 1) / Float.BYTES;
            scratch = scratchFloats == 0 ? null : keep(new memory(scratchDesc, cpu, (Pointer) null));
            if (scratch != null) {
                arguments.put(DNNL_ARG_SCRATCHPAD, scratch);
            }
        }

        Step with(int argument, memory value) {
            arguments.put(argument, value);
            return this;
        }

        /** Queues the primitive on the stream, its scratchpad where the buffer is now. */
        void run() {
            if (scratch != null) {
                scratch.set_data_handle(scratchpad.ensure(scratchFloats));
            }
            primitive.execute(stream, arguments);
        }
    }
}
