package org.gridrun.jobs.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.grids.RunDependency;
import org.gridrun.grids.SlurmSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code grids/nuq.yaml} is the ALQ/AMQ seed's {@code grid/nuq.py} and {@code grid/abl.py} in gridrun's keys: each
 * run expands to as many experiments as the seed's grid function, and names follow the seed's rule (every key not
 * excluded, in the seed's order, a method's overrides right after it). Checked against the real trainer schema.
 */
class NuqGridTest {
    private static final Path NUQ = Path.of("..", "grids", "nuq.yaml");
    private static GridFile grid;

    @BeforeAll
    static void load() {
        grid = GridFile.load(NUQ, new TrainerKeySchema());
    }

    private static List<String> names(String run) {
        return grid.expand(run).stream().map(Experiment::name).toList();
    }

    @Test
    void everyRunExpandsToTheSeedsCount() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        grid.runNames().forEach(run -> counts.put(run, grid.expand(run).size()));
        assertEquals(Map.of("mnist", 19, "cifar10_full_resnet32", 9, "cifar10_full_resnet110", 9,
                "cifar10_full_resnet8", 11, "imagenet_half", 12, "imagenet_full", 9, "bucket_size", 112, "bits", 62,
                "interval", 36), counts);
        assertEquals(List.of("mnist", "cifar10_full_resnet110", "cifar10_full_resnet8", "cifar10_full_resnet32",
                "imagenet_half", "imagenet_full", "bucket_size", "bits", "interval"), grid.runNames());
    }

    /** Every experiment of the seed's grids, ImageNet's included, passes the trainer's checks: they run as written. */
    @Test
    void everyExperimentIsOneTheTrainerAccepts() {
        int checked = 0;
        for (String run : grid.runNames()) {
            for (Experiment e : grid.expand(run)) {
                org.gridrun.engine.train.TrainerConfig.from(
                        org.gridrun.engine.train.TrainerConfig.resolve(e.params()));
                checked++;
            }
        }
        assertEquals(279, checked);
    }

    @Test
    void mnistNamesFollowTheSeedsRule() {
        List<String> names = names("mnist");
        String shared = "lr_0.1,weight_decay_0,momentum_0,model_lenet5,gvar_log_iter_1000,gvar_start_0,"
                + "compress_start_0";
        assertEquals("mnist_000_" + shared + ",method_none,ngpu_1", names.get(0));
        assertEquals("mnist_003_" + shared + ",bits_4,bucket_size_1024,ngpu_2,method_nuq,mul_0.5", names.get(3));
        assertEquals("mnist_018_" + shared + ",bits_4,bucket_size_8192,ngpu_4,method_nuq,mul_0.5", names.get(18));
        Experiment nuq = grid.expand("mnist").get(3);
        assertEquals(List.of("dataset", "lr", "weight_decay", "momentum", "epochs", "lr_decay_epochs", "model",
                "gvar_log_iter", "gvar_start", "compress_start", "bits", "bucket_size", "ngpu", "method", "mul"),
                List.copyOf(nuq.params().keySet()));
        assertEquals(0.5, nuq.params().get("mul"));
        assertEquals(30L, nuq.params().get("epochs"));
        assertEquals(Optional.of(NUQ + ":112:19"), nuq.origin("mul"));
    }

    @Test
    void methodsCarryTheirOverridesAndTheEstimatorsTranslate() {
        List<String> names = names("cifar10_full_resnet110");
        String shared = "cifar10_full_resnet110_%03d_optim_sgd,model_resnet110,batch_size_128,lr_0.1,momentum_0.9,"
                + "weight_decay_0.0001,";
        String nuq = "bits_3,bucket_size_16384,ngpu_4,dist_num_150,per_layer_false,ignore_small_buckets_,";
        assertEquals(List.of(String.format(shared, 0) + "method_none,ngpu_1",
                String.format(shared, 1) + nuq + "method_amq,amq_lr_0.7,amq_epochs_40",
                String.format(shared, 2) + nuq + "method_amq_nb,amq_lr_0.7,amq_epochs_40",
                String.format(shared, 3) + nuq + "method_alq,cd_epochs_30",
                String.format(shared, 4) + nuq + "method_qinf",
                String.format(shared, 5) + nuq + "method_trn",
                String.format(shared, 6) + nuq + "method_alq_nb,cd_epochs_30",
                String.format(shared, 7) + nuq + "method_nuq,mul_0.5",
                String.format(shared, 8) + "ngpu_4,method_none"), names);
        Experiment amq = grid.expand("cifar10_full_resnet110").get(1);
        assertEquals("40000,60000", amq.params().get("lr_decay_iters"));
        assertEquals(false, amq.params().get("per_layer"));
    }

    @Test
    void runsWithoutTheSeedsGOptimOnlyMeasure() {
        Experiment half = grid.expand("imagenet_half").get(1);
        assertEquals("imagenet_half_001_model_resnet18,batch_size_64,lr_0.1,momentum_0.9,weight_decay_0.0001,bits_4,"
                + "bucket_size_8192,ngpu_4,dist_num_350,per_layer_false,ignore_small_buckets_,method_amq,amq_lr_0.7",
                half.name());
        assertEquals(true, half.params().get("measure_only"));
        assertEquals(null, half.params().get("compress_start"));
        assertEquals(0L, grid.expand("imagenet_full").get(1).params().get("compress_start"));
        assertEquals(null, grid.expand("imagenet_full").get(1).params().get("measure_only"));
    }

    @Test
    void theAblationsSweepBucketSizesBitsAndSnapshotIntervals() {
        List<Experiment> buckets = grid.expand("bucket_size");
        assertEquals(List.of(16L, 64L, 128L, 256L, 512L, 1024L, 2048L, 4096L, 8192L, 16384L, 32768L),
                buckets.subList(1, 111).stream().map(e -> e.params().get("bucket_size")).distinct().toList());
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L),
                grid.expand("bits").subList(1, 61).stream().map(e -> e.params().get("bits")).distinct().toList());
        List<Experiment> interval = grid.expand("interval");
        assertEquals(List.of("0,80000,80000", "40000,60000,80000", "100,1000,2000,40000,60000,80000"),
                interval.subList(0, 3).stream().map(e -> e.params().get("osnap_iter")).toList());
        assertEquals("interval_003_optim_sgd,model_resnet8,batch_size_128,lr_0.1,momentum_0.9,weight_decay_0.0001,"
                + "bits_3,bucket_size_16384,ngpu_4,dist_num_350,per_layer_false,ignore_small_buckets_,method_amq,"
                + "amq_lr_0.7,amq_epochs_40", interval.get(3).name());
        assertEquals("bits_007_optim_sgd,model_resnet8,batch_size_128,lr_0.1,momentum_0.9,weight_decay_0.0001,"
                + "bits_2,bucket_size_16384,ngpu_4,dist_num_350,per_layer_false,ignore_small_buckets_,method_alq_nb,"
                + "cd_epochs_30,inv_", grid.expand("bits").get(7).name());
    }

    @Test
    void jobsAskForTheSeedsSlurmResources() {
        SlurmSpec slurm = grid.slurm("imagenet_full");
        assertEquals(Map.of("partition", "gpu", "time", "12-12:00:00", "gres", "gpu:1", "cpus-per-task", "3",
                "mem", "18G", "ntasks", "1"), slurm.options());
        assertEquals(SlurmSpec.DEFAULT_MAX_REQUEUES, slurm.maxRequeues());
        assertEquals(List.<RunDependency>of(), grid.dependencies("bits"));
    }
}
