package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code grid-run compress -i FILE} on damaged gradients: seeded mutations of a good {@code .npy} and a good
 * {@code .f32} ({@link Mutations}), every tenth through the whole command, the others through its reader and the
 * command line's error handler. Each ends in exit 0 (the damage left a file of finite float32 values) or exit 2
 * with one line naming the file; never a stack trace. Prints one summary line per format.
 */
class GradientFileFuzzTest {
    private static final long SEED = 20_261_125L;
    /** One mutation in this many runs the whole command; the others its reader, through the same error handler. */
    private static final int EVERY = 10;

    @TempDir
    Path tmp;

    @Test
    void damagedNpyFilesEndInExitZeroOrTwoNamingTheFile() throws IOException {
        fuzz("gradient .npy (grid-run compress)", npy(), "g.npy", new Mutations(SEED, 8), 240);
    }

    @Test
    void damagedRawFloatFilesEndInExitZeroOrTwoNamingTheFile() throws IOException {
        fuzz("gradient .f32 (grid-run compress)", raw(), "g.f32", new Mutations(SEED + 1), 120);
    }

    private void fuzz(String reader, byte[] good, String name, Mutations mutations, int count) throws IOException {
        FuzzTally tally = new FuzzTally(reader, SEED);
        List<Mutations.Mutation> cases = mutations.of(good, count);
        for (int i = 0; i < cases.size(); i++) {
            Path file = Files.createDirectories(tmp.resolve(String.valueOf(i))).resolve(name);
            Files.write(file, cases.get(i).bytes());
            if (i % EVERY == 0) {
                Cli.Result r = Cli.run(tmp, "compress", "-m", "qsgd", "-p", "bits=4", "-i", file.toString(),
                        "--repeat", "1");
                tally.record(cases.get(i), file, r.exit(), r.err());
            } else {
                tally.judge(cases.get(i), file, () -> GradientFile.read(file));
            }
        }
        tally.finish();
    }

    /** 48 float32 values of shape (6, 8), as np.save writes them (format 1.0). */
    static byte[] npy() {
        String header = "{'descr': '<f4', 'fortran_order': False, 'shape': (6, 8), }";
        header = header + " ".repeat((64 - (10 + header.length() + 1) % 64) % 64) + "\n";
        ByteBuffer b = ByteBuffer.allocate(10 + header.length() + 4 * 48).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) header.length());
        b.put(header.getBytes(StandardCharsets.ISO_8859_1));
        for (int i = 0; i < 48; i++) {
            b.putFloat((float) Math.sin(i));
        }
        return b.array();
    }

    private static byte[] raw() {
        ByteBuffer b = ByteBuffer.allocate(4 * 48).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 48; i++) {
            b.putFloat((float) Math.cos(i));
        }
        return b.array();
    }
}
