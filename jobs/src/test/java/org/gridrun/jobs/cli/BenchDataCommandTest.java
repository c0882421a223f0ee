package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code grid-run bench data} prints a well-formed table with positive figures; nothing depends on how fast. */
class BenchDataCommandTest {
    @TempDir
    Path dir;

    private String[] run(int expectedExit, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = GridRun.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        assertEquals(expectedExit, cli.execute(args), err + "\n" + out);
        return (out + err.toString()).split("\n");
    }

    /** Two classes of three JPEGs in train and one in val, of a few sizes. */
    private void writeTree() throws IOException {
        int[][] sizes = {{60, 45}, {45, 60}, {50, 50}};
        for (String split : new String[] {"train", "val"}) {
            for (String label : new String[] {"n01", "n02"}) {
                Path folder = Files.createDirectories(dir.resolve(split).resolve(label));
                for (int i = 0; i < (split.equals("train") ? 3 : 1); i++) {
                    BufferedImage image = new BufferedImage(sizes[i][0], sizes[i][1], BufferedImage.TYPE_INT_RGB);
                    for (int y = 0; y < image.getHeight(); y++) {
                        for (int x = 0; x < image.getWidth(); x++) {
                            image.setRGB(x, y, (x * 4) << 16 | (y * 4) << 8 | (i * 60 + 30));
                        }
                    }
                    ImageIO.write(image, "jpeg", folder.resolve(label + "_" + i + ".JPEG").toFile());
                }
            }
        }
    }

    @Test
    void printsGridrunsImagesPerSecondWithoutTorch() throws Exception {
        writeTree();
        // 60 images a round, so that the process's CPU clock (10 ms ticks on some kernels) advances while timed
        String[] lines = run(0, "bench", "data", "--dataset", "imagenet", "--dir", dir.toString(), "--threads", "2",
                "--batch", "6", "--batches", "10", "--warmup", "1", "--rounds", "2", "--no-torch");
        assertEquals("imagenet training view (RandomResizedCrop 224, flip, normalise) of " + dir.resolve("train")
                + ": 6 images in 2 classes; batch 6, 2 threads, 10 batches timed after 1 warm-up, median of 2 "
                + "alternating rounds", lines[0]);
        assertTrue(lines[1].startsWith("gridrun decodes with "), lines[1]);
        assertEquals("torchvision: skipped (--no-torch)", lines[2]);
        assertTrue(lines[3].matches("pipeline +images/s +images/s/thread +ratio +images/cpu-s +cpu ratio"),
                lines[3]);
        assertTrue(lines[4].matches("gridrun +\\d+\\.\\d +\\d+\\.\\d +\\d+\\.\\d *"), lines[4]);
        String[] figures = lines[4].trim().split(" +");
        assertTrue(Double.parseDouble(figures[1]) > 0 && Double.parseDouble(figures[3]) > 0, lines[4]);
        assertEquals(5, lines.length);
    }

    @Test
    void comparesWithTorchvisionWhenPythonHasIt() throws Exception {
        assumeTrue(TorchBench.findVision() != null, "python3 cannot import torch, torchvision and PIL");
        writeTree();
        // Enough images that both processes' CPU clocks (10 ms ticks on some kernels) advance while timed.
        String[] lines = run(0, "bench", "data", "--dir", dir.toString(), "--threads", "1", "--batch", "6",
                "--batches", "20", "--warmup", "1", "--rounds", "1");
        assertTrue(lines[2].startsWith("torchvision ") && lines[2].contains(" decodes with Pillow "), lines[2]);
        String number = " +\\d+\\.\\d+";
        assertTrue(lines[4].matches("gridrun" + number.repeat(5)), lines[4]);
        assertTrue(lines[5].matches("torchvision" + number.repeat(2) + " +1\\.00" + number + " +1\\.00"), lines[5]);
    }

    @Test
    void unknownDataSetsBadCountsAndMissingFoldersAreBadInput() throws Exception {
        assertTrue(run(2, "bench", "data", "--dataset", "svhn", "--dir", dir.toString())[0]
                .contains("--dataset must be one of"));
        assertTrue(run(2, "bench", "data", "--dir", dir.toString(), "--threads", "0")[0]
                .contains("--threads, --batch, --batches and --rounds must be positive"));
        String[] missing = run(2, "bench", "data", "--dir", dir.toString(), "--no-torch");
        assertTrue(missing[0].contains("ImageNet folders missing in " + dir), missing[0]);
    }
}
