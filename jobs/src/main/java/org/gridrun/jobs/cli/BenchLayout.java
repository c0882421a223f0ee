package org.gridrun.jobs.cli;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.compress.TensorLayout;

/**
 * The tensor layout {@code grid-run bench compressors} binds: ResNet-18's parameter tensors, in order, cut to the
 * requested size, so that matrix-shaped methods (PowerSGD) and per-tensor ones see the layers a trainer gives them.
 *
 * <p>ResNet-18 (ImageNet, 11.69M parameters) is the size the 11M-value vector stands for. Each convolution
 * of {@code out} filters over {@code in} channels with a {@code k×k} kernel is a tensor of shape
 * {@code [out, in, k, k]}, viewed as an {@code out × in·k·k} matrix; each batch norm is two vectors (scale, shift) of
 * {@code out}; the classifier is {@code [1000, 512]} with a bias of 1000. Tensors are taken while they fit; what is
 * left becomes a {@code [left/512, 512]} linear layer and a vector of the last {@code left mod 512} values. A
 * size below the first convolution is one flat tensor.
 */
final class BenchLayout {
    private static final int STEM = 64;
    private static final int[] STAGES = {64, 128, 256, 512};
    private static final int CLASSES = 1000;

    private final List<String> names = new ArrayList<>();
    private final List<int[]> shapes = new ArrayList<>();
    private int left;
    private boolean full;

    private BenchLayout(int size) {
        left = size;
    }

    /** ResNet-18's tensors cut to exactly {@code size} values, as described above. */
    static TensorLayout resnet18(int size) {
        BenchLayout b = new BenchLayout(size);
        b.conv("conv1", STEM, 3, 7);
        int in = STEM;
        for (int s = 0; s < STAGES.length; s++) {
            int out = STAGES[s];
            for (int block = 0; block < 2; block++) {
                String prefix = "layer" + (s + 1) + "." + block + ".";
                b.conv(prefix + "conv1", out, block == 0 ? in : out, 3);
                b.conv(prefix + "conv2", out, out, 3);
                if (block == 0 && in != out) {
                    b.conv(prefix + "downsample", out, in, 1);
                }
            }
            in = out;
        }
        b.add("fc.weight", CLASSES, in);
        b.add("fc.bias", CLASSES);
        return b.finish(size);
    }

    /** A convolution's weight and its batch norm's scale and shift. */
    private void conv(String name, int out, int in, int kernel) {
        add(name + ".weight", out, in, kernel, kernel);
        add(name + ".bn.weight", out);
        add(name + ".bn.bias", out);
    }

    /** Adds a tensor of {@code shape} when it fits in what is left; after one does not fit, none is added. */
    private void add(String name, int... shape) {
        long size = 1;
        for (int d : shape) {
            size *= d;
        }
        if (full || size > left) {
            full = true;
            return;
        }
        names.add(name);
        shapes.add(shape);
        left -= (int) size;
    }

    /** The tensors taken, then what is left as a linear layer of 512 columns and a vector. */
    private TensorLayout finish(int size) {
        if (names.isEmpty()) {
            return TensorLayout.flat(size);
        }
        if (left >= 512) {
            names.add("rest.weight");
            shapes.add(new int[] {left / 512, 512});
        }
        if (left % 512 > 0) {
            names.add("rest.bias");
            shapes.add(new int[] {left % 512});
        }
        return TensorLayout.of(names, shapes);
    }
}
