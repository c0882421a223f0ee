package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompressCommandTest {
    @TempDir
    Path tmp;

    /** A .npy file as NumPy 1.x writes it for np.save(f, arr.astype('<f4')) of shape (rows, cols). */
    private Path npy(float[] values, int rows, int cols) throws Exception {
        return npy(values, rows, cols, "g.npy");
    }

    private Path npy(float[] values, int rows, int cols, String name) throws Exception {
        String header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + rows + ", " + cols + "), }";
        int total = 10 + header.length() + 1;
        header = header + " ".repeat((64 - total % 64) % 64) + "\n";
        ByteBuffer b = ByteBuffer.allocate(10 + header.length() + 4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) header.length());
        b.put(header.getBytes(StandardCharsets.ISO_8859_1));
        for (float v : values) {
            b.putFloat(v);
        }
        Path file = tmp.resolve(name);
        Files.write(file, b.array());
        return file;
    }

    private static double number(String out, String label) {
        Matcher m = Pattern.compile(label + "\\s+([0-9.eE+-]+)").matcher(out);
        assertTrue(m.find(), label + " in\n" + out);
        return Double.parseDouble(m.group(1));
    }

    /** A heavy-tailed gradient (a normal times a log-normal scale), like a real layer's. */
    private Path heavyTailed() throws Exception {
        SplittableRandom random = new SplittableRandom(5);
        float[] v = new float[128 * 512];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (random.nextGaussian() * Math.exp(1.5 * random.nextGaussian()));
        }
        return npy(v, 128, 512);
    }

    private Cli.Result compress(Path in, String method, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("compress", "-m", method, "-p",
                "bits=3", "-p", "bucket_size=8192", "-i", in.toString(), "--repeat", "4"));
        args.addAll(java.util.List.of(more));
        Cli.Result r = Cli.run(tmp, args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.out() + r.err());
        return r;
    }

    @Test
    void alqAndAmqFitTheirLevelsToTheInputAndBeatTheUniformAndFixedLevelsTheyStartFrom() throws Exception {
        Path in = heavyTailed();
        double qsgd = number(compress(in, "qsgd").out(), "rel sq error");
        double nuq = number(compress(in, "nuq").out(), "rel sq error");
        Cli.Result alq = compress(in, "alq");
        Cli.Result amq = compress(in, "amq");
        assertTrue(alq.out().contains("level fit        on the input itself"), alq.out());
        assertTrue(number(alq.out(), "rel sq error") < 0.8 * qsgd,
                "alq " + number(alq.out(), "rel sq error") + " vs qsgd " + qsgd + "\n" + alq.out());
        assertTrue(number(amq.out(), "rel sq error") < 0.8 * nuq,
                "amq " + number(amq.out(), "rel sq error") + " vs nuq " + nuq + "\n" + amq.out());
        Matcher proxy = Pattern.compile("variance proxy\\s+(\\S+) before, (\\S+) after").matcher(alq.out());
        assertTrue(proxy.find(), alq.out());
        assertTrue(Double.parseDouble(proxy.group(2)) < Double.parseDouble(proxy.group(1)), alq.out());
        assertTrue(amq.out().contains("p before/after   0.500000 / "), amq.out());
    }

    /** {@code count} steps of one 64×32 gradient: a fixed rank-2 matrix plus 1 % noise, as files s0.npy, s1.npy, …. */
    private java.util.List<String> rankTwoSteps(int count) throws Exception {
        SplittableRandom random = new SplittableRandom(9);
        double[][] u = new double[2][64];
        double[][] w = new double[2][32];
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < 64; i++) {
                u[k][i] = random.nextGaussian() * (k == 0 ? 3 : 1);
            }
            for (int j = 0; j < 32; j++) {
                w[k][j] = random.nextGaussian();
            }
        }
        java.util.List<String> args = new java.util.ArrayList<>();
        for (int t = 0; t < count; t++) {
            float[] v = new float[64 * 32];
            for (int i = 0; i < 64; i++) {
                for (int j = 0; j < 32; j++) {
                    v[i * 32 + j] = (float) (u[0][i] * w[0][j] + u[1][i] * w[1][j] + 0.01 * random.nextGaussian());
                }
            }
            args.addAll(java.util.List.of("-i", npy(v, 64, 32, "s" + t + ".npy").toString()));
        }
        return args;
    }

    /** The rows of a sequence's table: step, bits per element, error against the gradient, against gradient + unsent. */
    private static java.util.List<double[]> steps(String out) {
        java.util.List<double[]> rows = new java.util.ArrayList<>();
        Matcher m = Pattern.compile("(?m)^(\\d+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)$").matcher(out);
        while (m.find()) {
            rows.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                    Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4))});
        }
        return rows;
    }

    @Test
    void aSequenceOfGradientsKeepsPowerSgdsWarmStartAndPrintsEachStepsBitsAndErrors() throws Exception {
        java.util.List<String> files = rankTwoSteps(6);
        for (String variant : new String[] {"paper", "alternating"}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("compress", "-m", "powersgd",
                    "-p", "rank=2", "-p", "variant=" + variant, "--repeat", "2"));
            args.addAll(files);
            Cli.Result r = Cli.run(tmp, args.toArray(String[]::new));
            assertEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("on 6 steps"), r.out());
            java.util.List<double[]> rows = steps(r.out());
            assertEquals(6, rows.size(), r.out());
            for (int t = 0; t < 6; t++) {
                // rank 2 sends P (64×2) and Q (32×2), or one of them in turn, Q first: 2 + 1, or 1 and 2, bits per value
                double bits = variant.equals("paper") ? 3 : t % 2 == 0 ? 1 : 2;
                assertEquals(bits, rows.get(t)[1], 1e-9, variant + " step " + t + "\n" + r.out());
            }
            // the paper's step is a power iteration, which finds a rank-2 gradient at once; the alternating one
            // starts, as the authors' package does, by projecting on its random P (about 1 - 2/64 lost)
            assertTrue(variant.equals("paper") ? rows.get(0)[3] < 1e-3 : rows.get(0)[3] > 0.5,
                    variant + "\n" + r.out());
            // warm-started, the paper's step sends all but the noise, the alternating one's P steps nearly; its Q
            // steps project on a P that spans the columns of the last step's gradient plus residual, and the
            // residual's columns differ from the gradient's: about 0.5 % stays behind every other step (numpy gives
            // 0.6 to 2 % for the authors' algorithm on such a sequence, depending on the first factor)
            for (int t = 1; t < 6; t++) {
                double bound = variant.equals("paper") ? 1e-3 : t % 2 == 1 ? 5e-3 : 0.1;
                assertTrue(rows.get(t)[3] < bound, variant + " step " + t + "\n" + r.out());
            }
        }
    }

    @Test
    void aSequenceStepOfAnotherShapeIsRefusedNamingBoth() throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("compress", "-m", "powersgd"));
        args.addAll(rankTwoSteps(1));
        args.addAll(java.util.List.of("-i", npy(new float[] {1, 2, 3, 4}, 2, 2, "other.npy").toString()));
        Cli.Result r = Cli.run(tmp, args.toArray(String[]::new));
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("shape [2, 2], but the first step"), r.err());
    }

    @Test
    void aSampleOfAnotherLengthIsRefusedNamingBoth() throws Exception {
        Path other = tmp.resolve("other.npy");
        Files.move(npy(new float[] {1, 2, 3, 4}, 2, 2), other);
        Path in = heavyTailed();
        Cli.Result r = Cli.run(tmp, "compress", "-m", "alq", "-i", in.toString(), "--sample", other.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("holds 4 values, the input 65536"), r.err());
    }

    @Test
    void anUnbiasedMethodsBiasIsAboutItsErrorOverTheRepeatsAndTheOutputKeepsTheShape() throws Exception {
        SplittableRandom random = new SplittableRandom(3);
        float[] v = new float[64 * 32];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
        }
        Path in = npy(v, 64, 32);
        Path out = tmp.resolve("q.npy");
        Cli.Result r = Cli.run(tmp, "compress", "-m", "qsgd", "-p", "bits=4", "-p", "bucket_size=256", "-i",
                in.toString(), "-o", out.toString(), "--repeat", "40");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("2048 values [64, 32], 40 repeats"), r.out());
        double error = number(r.out(), "rel sq error");
        double bias = number(r.out(), "bias estimate");
        assertTrue(bias < 2.0 * error / 40 && bias > 0.5 * error / 40, "bias " + bias + " vs error/R " + error / 40);
        assertEquals(4 + 32.0 / 256, number(r.out(), "bits/element"), 1e-4, "4 bits + one float32 norm per 256");
        assertEquals(4, number(r.out(), "value bits"), 1e-9);
        assertEquals(32.0 / 256, number(r.out(), "side bits"), 1e-9);
        GradientFile written = GradientFile.read(out);
        assertArrayEquals(new int[] {64, 32}, written.shape());
        assertTrue(written.npy());
    }

    @Test
    void jointSqPrintsItsWidthSharesAndItsMapAsSideBits() throws Exception {
        SplittableRandom random = new SplittableRandom(4);
        float[] v = new float[128 * 72];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (random.nextGaussian() * -Math.log(1 - random.nextDouble()));
        }
        Cli.Result r = Cli.run(tmp, "compress", "-m", "jointsq", "-i", npy(v, 128, 72).toString(), "--repeat", "2");
        assertEquals(0, r.exit(), r.out() + r.err());
        double shares = 0;
        for (int w : new int[] {0, 2, 4, 8}) {
            shares += number(r.out(), "width_share/" + w);
        }
        assertEquals(1, shares, 1e-5, "printed to six digits");
        assertTrue(number(r.out(), "value bits") <= Math.ceil(v.length * 32 * 0.032) / v.length + 1e-4, r.out());
        assertEquals(number(r.out(), "bits/element"), number(r.out(), "value bits") + number(r.out(), "side bits"),
                1e-3);
    }

    @Test
    void rawFloatsRoundTripAndBadInputIsNamed() throws Exception {
        Path raw = tmp.resolve("g.f32");
        Files.write(raw, new byte[] {0, 0, (byte) 0x80, 0x3f, 0, 0, 0, 0x40});
        GradientFile g = GradientFile.read(raw);
        assertArrayEquals(new float[] {1f, 2f}, g.values());
        Cli.Result none = Cli.run(tmp, "compress", "-m", "none", "-i", raw.toString(), "--repeat", "1");
        assertEquals(0, none.exit(), none.err());
        assertEquals(0.0, number(none.out(), "rel sq error"));
        Files.write(tmp.resolve("odd.f32"), new byte[] {1, 2, 3});
        Cli.Result odd = Cli.run(tmp, "compress", "-m", "none", "-i", tmp.resolve("odd.f32").toString());
        assertEquals(2, odd.exit());
        assertTrue(odd.err().contains("odd.f32: a raw float32 file must hold a multiple of 4 bytes, found 3"), odd.err());
        Cli.Result badParam = Cli.run(tmp, "compress", "-m", "qsgd", "-p", "bits=0", "-i", raw.toString());
        assertEquals(2, badParam.exit());
        assertTrue(badParam.err().contains("bits must be in [1, 8], found 0"), badParam.err());
    }

    @Test
    void theIssuesExamplesEndInExitTwoWithOneLineThatSaysWhatToDo() throws Exception {
        byte[] good = GradientFileFuzzTest.npy();
        Path short20 = Files.write(tmp.resolve("short.npy"), java.util.Arrays.copyOf(good, 20));
        Cli.Result cut = Cli.run(tmp, "compress", "-m", "qsgd", "-i", short20.toString());
        assertEquals(2, cut.exit());
        assertEquals("grid-run: " + short20 + ", byte 8: the header is declared 118 bytes long but only 10 bytes "
                + "follow the preamble; the file is cut short; save it again with np.save(path, "
                + "arr.astype(np.float32))", cut.err().strip());

        Path noMagic = Files.write(tmp.resolve("raw.npy"), new byte[] {0, 0, (byte) 0x80, 0x3f, 0, 0, 0, 0x40});
        Cli.Result raw = Cli.run(tmp, "compress", "-m", "qsgd", "-i", noMagic.toString());
        assertEquals(2, raw.exit());
        assertEquals("grid-run: " + noMagic + ", byte 0: a .npy file must begin with NumPy's magic \\x93NUMPY, found "
                + "'\\x00\\x00\\x80?\\x00\\x00…'; save it with np.save, or name a file of raw little-endian float32 "
                + "values .f32", raw.err().strip());

        float[] v = new float[64];
        v[5] = Float.NaN;
        v[9] = Float.POSITIVE_INFINITY;
        Path nan = npy(v, 8, 8);
        Cli.Result nonFinite = Cli.run(tmp, "compress", "-m", "qsgd", "-i", nan.toString());
        assertEquals(2, nonFinite.exit());
        assertEquals("grid-run: " + nan + ": 2 of its 64 values are NaN or infinite, the first at index 5 (NaN); "
                + "compressors need finite gradients: replace them (np.nan_to_num) or find what wrote them",
                nonFinite.err().strip());
        System.out.println("issue 25's .npy examples now say:\n" + cut.err() + raw.err() + nonFinite.err());
    }
}
