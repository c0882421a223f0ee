package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridrun.engine.data.CifarFiles;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.train.TrainJob;
import org.gridrun.engine.train.TrainListener;
import org.gridrun.engine.train.TrainResult;
import org.gridrun.engine.train.TrainerConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole training runs on the GPU end where the CPU's do: a 200-step resnet8 run at the same loss, lenet5 on
 * Fashion-MNIST at the same test accuracy. Too long for the emulator: these run only where there is a GPU.
 */
class CudaTrainingTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void needsAGpu() {
        GpuTarget.DEVICE.open().close();
    }

    private TrainResult train(String name, Map<String, Object> params) {
        RunDir dir = RunDir.at(tmp.resolve("runs").resolve(name));
        dir.writeExperiment(new ExperimentRecord("g", "r", name, "id-" + name, params,
                TrainerConfig.resolve(params)));
        TrainResult result = TrainJob.run(dir, TrainListener.NONE);
        assertFalse(result.diverged(), name + " diverged");
        return result;
    }

    @Test
    void aResnet8RunEndsAtTheCpusLoss() throws IOException {
        Path cifar = Files.createDirectories(tmp.resolve("cifar"));
        CifarFiles.writeCifar10(cifar, 200);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("dataset", "cifar10");
        params.put("data_dir", cifar.toString());
        params.put("model", "resnet8");
        params.put("ngpu", 2L);
        params.put("batch_size", 32L);
        params.put("lr", 0.05);
        params.put("momentum", 0.9);
        params.put("niters", 200L);
        params.put("chkpt_iter", 100L);
        params.put("method", "qsgd");
        params.put("bits", 4L);
        params.put("bucket_size", 1024L);
        params.put("backend", "cpu");
        TrainResult cpu = train("cpu", params);
        params.put("backend", "cuda");
        TrainResult cuda = train("cuda", params);
        assertEquals("cuda", cuda.backend());
        assertEquals(cpu.finalLoss(), cuda.finalLoss(), 1e-3, "final training loss, cpu vs cuda");
    }

    @Test
    void lenet5LearnsFashionMnistAsWellAsOnTheCpu() {
        double[] accuracy = new double[2];
        for (String backend : new String[] {"cpu", "cuda"}) {
            for (long seed = 1; seed <= 2; seed++) {
                Map<String, Object> params = new LinkedHashMap<>();
                params.put("dataset", "fashion-mnist");
                params.put("model", "lenet5");
                params.put("ngpu", 2L);
                params.put("batch_size", 32L);
                params.put("lr", 0.02);
                params.put("momentum", 0.9);
                params.put("niters", 300L);
                params.put("chkpt_iter", 300L);
                params.put("seed", seed);
                params.put("backend", backend);
                TrainResult r = train(backend + seed, params);
                accuracy[backend.equals("cpu") ? 0 : 1] += r.finalAccuracy() / 2;
            }
        }
        assertEquals(accuracy[0], accuracy[1], 0.005, "mean test accuracy over 2 seeds, cpu vs cuda");
    }
}
