package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import javax.imageio.ImageIO;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny ImageNet-layout grid trains end to end on the CPU through the real command line: ResNet-18 with the
 * ImageNet stem on 224×224 random resized crops of JPEGs of several sizes, two workers, a full-precision and a
 * quantized experiment, the validation set streamed through the data threads, and the results in the store.
 */
class ImageNetGridTest {
    private static final List<String> CLASSES = List.of("n01440764", "n01443537", "n01484850");

    @TempDir
    Path workdir;

    /** {@code perClass} JPEGs per class in {@code split}, of sizes that differ in both sides and aspect. */
    private static void writeSplit(Path root, String split, int perClass, Random rng) throws IOException {
        for (int c = 0; c < CLASSES.size(); c++) {
            Path dir = Files.createDirectories(root.resolve(split).resolve(CLASSES.get(c)));
            for (int i = 0; i < perClass; i++) {
                int width = 40 + rng.nextInt(60);
                int height = 30 + rng.nextInt(60);
                BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
                for (int y = 0; y < height; y++) {
                    for (int x = 0; x < width; x++) {
                        int shade = (x * 255 / width + 80 * c + rng.nextInt(16)) & 0xFF;
                        image.setRGB(x, y, shade << 16 | (y * 255 / height) << 8 | (255 - shade));
                    }
                }
                ImageIO.write(image, "jpg", dir.resolve(split + "_" + c + "_" + i + ".JPEG").toFile());
            }
        }
    }

    @Test
    void aTinyImageNetGridTrainsResNet18EndToEnd() throws IOException {
        Path data = workdir.resolve("imagenet");
        Random rng = new Random(21);
        writeSplit(data, "train", 4, rng);
        writeSplit(data, "val", 1, rng);
        Files.createDirectories(workdir.resolve("grids"));
        Files.writeString(workdir.resolve("grids/tinynet.yaml"), """
                defaults:
                  dataset: imagenet
                  data_dir: %s
                  data_threads: 2
                  model: resnet18
                  ngpu: 2
                  batch_size: 2
                  niters: 2
                  log_interval: 1
                  chkpt_iter: 2
                runs:
                  tiny:
                    exclude: [dataset, data_dir, data_threads, model, ngpu, batch_size, niters, log_interval,
                              chkpt_iter, bucket_size]
                    grid:
                      - method: none
                      - method: qsgd
                        bits: 4
                        bucket_size: 8192
                """.formatted(data));
        Cli.Result result = Cli.run(workdir, "--grid", "tinynet", "--jobs", "1");
        assertEquals(0, result.exit(), () -> "exit code; out:\n" + result.out() + "\nerr:\n" + result.err());
        assertTrue(result.out().contains("ImageNet"), result.out());
        try (ResultsStore store = ResultsStore.open(workdir.resolve("runs/gridrun"))) {
            List<StoredExperiment> experiments = store.experiments("tinynet", null);
            assertEquals(2, experiments.size());
            for (StoredExperiment e : experiments) {
                assertEquals(RunState.COMPLETED, e.state(), e.name());
                List<MetricRecord> accuracy = store.series(e.id(), "Vacc");
                assertEquals(List.of(2L), accuracy.stream().map(MetricRecord::step).toList(), e.name());
                double value = accuracy.get(0).value();
                assertTrue(value >= 0 && value <= 100, e.name() + " accuracy " + value);
                List<MetricRecord> loss = store.series(e.id(), "loss");
                assertEquals(2, loss.size(), e.name());
                assertTrue(loss.stream().allMatch(r -> Double.isFinite(r.value())), e.name() + " loss " + loss);
            }
        }
    }
}
