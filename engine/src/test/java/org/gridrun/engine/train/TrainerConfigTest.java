package org.gridrun.engine.train;

import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.compress.Compressors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.optim.LearningRateSchedule;
import org.junit.jupiter.api.Test;

class TrainerConfigTest {
    private static String error(Map<String, ?> params) {
        return assertThrows(ConfigException.class, () -> TrainerConfig.from(TrainerConfig.resolve(params)))
                .getMessage();
    }

    @Test
    void defaultsInSchemaOrder() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("dataset", "fashion-mnist");
        expected.put("data_dir", "");
        expected.put("model", "mlp");
        expected.put("hidden", "256");
        expected.put("ngpu", 4L);
        expected.put("batch_size", 32L);
        expected.put("lr", 0.1);
        expected.put("momentum", 0.9);
        expected.put("nesterov", false);
        expected.put("weight_decay", 0.0);
        expected.put("niters", 300L);
        expected.put("method", "none");
        expected.put("bits", 4L);
        expected.put("bucket_size", 8192L);
        expected.put("seed", 1L);
        expected.put("log_interval", 10L);
        expected.put("chkpt_iter", 100L);
        expected.put("backend", "auto");
        Map<String, Object> resolved = TrainerConfig.resolve(Map.of());
        assertEquals(TrainerConfig.schema().stream().map(ConfigKey::name).toList(), List.copyOf(resolved.keySet()));
        expected.forEach((key, value) -> assertEquals(value, resolved.get(key), key));
        assertEquals(List.copyOf(expected.keySet()),
                resolved.keySet().stream().filter(expected::containsKey).toList());
        TrainerConfig config = TrainerConfig.from(resolved);
        assertEquals(List.of(256), config.hidden());
        assertEquals(4, config.ngpu());
        assertEquals(Map.of(), config.compressorParams(), "none takes no parameters");
    }

    @Test
    void overridesAreTypedAndCompressorParametersPassThrough() {
        Map<String, Object> params = new HashMap<>();
        params.put("method", "qsgd");
        params.put("bits", 2);
        params.put("hidden", "512, 128");
        params.put("lr", 1L);
        params.put("nesterov", true);
        params.put("backend", "auto");
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        assertEquals("qsgd", config.method());
        assertEquals(Map.of("bits", 2L, "bucket_size", 8192L, "per_layer", false,
                "ignore_small_buckets", false), config.compressorParams());
        assertEquals(List.of(512, 128), config.hidden());
        assertEquals(1.0, config.lr());
        assertEquals(true, config.nesterov());
        assertEquals("auto", config.backend());
        assertEquals(List.of(64), TrainerConfig.from(Map.of("hidden", 64L)).hidden());
        assertEquals(List.of(), TrainerConfig.from(Map.of("hidden", "")).hidden(), "no hidden layer");
    }

    @Test
    void typeErrorsNameTheKeyTheTypeAndTheValue() {
        assertEquals("ngpu must be an integer, found 'abc'", error(Map.of("ngpu", "abc")));
        assertEquals("ngpu must be an integer, found 2.5", error(Map.of("ngpu", 2.5)));
        assertEquals("lr must be a number, found 'fast'", error(Map.of("lr", "fast")));
        assertEquals("nesterov must be true or false (or '' for true), found 'yes'", error(Map.of("nesterov", "yes")));
        assertEquals("hidden must be an integer or a comma-separated list of integers, found '512,x'",
                error(Map.of("hidden", "512,x")));
    }

    @Test
    void rangeErrorsNameTheKeyTheRuleAndTheValue() {
        assertEquals("lr must be positive, found -0.1", error(Map.of("lr", -0.1)));
        assertEquals("ngpu must be positive, found 0", error(Map.of("ngpu", 0L)));
        assertEquals("batch_size must be positive, found -3", error(Map.of("batch_size", -3L)));
        assertEquals("momentum must be in [0, 1), found 1.0", error(Map.of("momentum", 1.0)));
        assertEquals("weight_decay must not be negative, found -1", error(Map.of("weight_decay", -1L)));
        assertEquals("hidden must hold positive integers, found '256,0'", error(Map.of("hidden", "256,0")));
        assertEquals("nesterov needs a positive momentum, found momentum 0.0",
                error(Map.of("nesterov", true, "momentum", 0.0)));
        assertEquals("bits must be in [1, 8], found 0", error(Map.of("method", "qsgd", "bits", 0L)));
        assertEquals("backend must be one of [auto, cuda, cpu], found 'gpu'", error(Map.of("backend", "gpu")));
        assertEquals("method must be one of " + Compressors.names() + ", found 'qsdg'",
                error(Map.of("method", "qsdg")));
    }

    @Test
    void unknownKeysListTheKnownOnes() {
        String m = error(Map.of("zzz", 1L));
        assertTrue(m.startsWith("unknown key 'zzz'; known: dataset, data_dir, data_threads, skip_bad_images, model, "
                + "hidden, dropout, ngpu, batch_size, "), m);
        // The trainer's own keys, then the parameters compressors declare that it lacks (trn's clip, …).
        assertTrue(m.contains(", seed, log_interval, chkpt_iter, backend, cuda_graph, concurrent_workers, "
                + "memory_codec, memory_targets, error_feedback"),
                m);
        assertTrue(m.contains(", clip"), m);
    }

    /**
     * Every data set, model and method the grid language knows (those of the four papers and their seeds) is one
     * this build runs: none is left "not available in this version of gridrun yet".
     */
    @Test
    void everyNameTheGridLanguageKnowsRuns() {
        for (String key : List.of("dataset", "model", "optim", "method", "text_level")) {
            List<String> missing = TrainerConfig.choices(key).stream()
                    .filter(name -> !TrainerConfig.available(key).contains(name)).toList();
            assertEquals(List.of(), missing, key + " names the grid language accepts but this build cannot run");
        }
        assertTrue(TrainerConfig.choices("method").contains("amq"));
        assertEquals("dataset must be one of [fashion-mnist, mnist, cifar10, cifar100, imagenet, synthetic-cifar, "
                + "wikitext2, text, generated-text], "
                + "found 'svhn'", error(Map.of("dataset", "svhn")));
    }

    /** Either clipping, of each worker's gradient or of their average, is any model's, and at least 0. */
    @Test
    void clippingIsAnyModelsAtEitherPlace() {
        TrainerConfig c = TrainerConfig.from(TrainerConfig.resolve(Map.of("model", "vit", "dataset",
                "synthetic-cifar", "clip_average_norm", 1.0)));
        assertEquals(new Clipping(0, 1.0), c.clipping());
        assertEquals(new Clipping(0, 0), TrainerConfig.from(TrainerConfig.resolve(Map.of())).clipping());
        assertTrue(error(Map.of("clip_average_norm", -1.0)).contains("clip_average_norm"),
                error(Map.of("clip_average_norm", -1.0)));
        assertTrue(error(Map.of("clip_norm", -0.5)).contains("clip_norm"), error(Map.of("clip_norm", -0.5)));
    }

    /** The language model's keys validate, and text data and the lstm model come only together. */
    @Test
    void theLanguageModelAndItsTextComeTogether() {
        TrainerConfig c = TrainerConfig.from(TrainerConfig.resolve(Map.of("dataset", "wikitext2", "model", "lstm",
                "bptt", 35L, "lstm_units", 200L, "clip_norm", 0.25, "text_level", "char")));
        assertEquals(new LanguageConfig("", true, 35, 10, 200, 3, 0.4), c.language());
        assertEquals(new Clipping(0.25, 0), c.clipping());
        assertTrue(TrainerConfig.choices("text_level").contains("char"));
        assertEquals("model lstm is a language model: train it on dataset wikitext2 or text, found dataset "
                + "fashion-mnist", error(Map.of("model", "lstm")));
        assertEquals("dataset wikitext2 is text: train it with model lstm, found model mlp",
                error(Map.of("dataset", "wikitext2")));
        assertEquals("dataset text needs path: the UTF-8 text file to read",
                error(Map.of("dataset", "text", "model", "lstm")));
        assertTrue(error(Map.of("dataset", "wikitext2", "model", "lstm", "bptt", 0L)).contains("bptt"));
        assertTrue(error(Map.of("dataset", "wikitext2", "model", "lstm", "text_level", "byte")).contains(
                "text_level"));
    }

    @Test
    void theImageNetAndWideResNetsValidate() {
        for (String model : List.of("resnet18", "resnet34", "resnet50", "wrn-28-10", "wrn-16-4")) {
            assertEquals(model, TrainerConfig.from(TrainerConfig.resolve(Map.of("model", model))).model());
        }
        assertTrue(error(Map.of("model", "wrn")).startsWith("model must be one of [logreg, mlp, lenet5, resnet8, "),
                error(Map.of("model", "wrn")));
        assertTrue(TrainerConfig.choices("model").contains("wrn-28-10"));
    }

    @Test
    void theSeedsTrainerKeysAreAllImplemented() {
        TrainerConfig c = TrainerConfig.from(TrainerConfig.resolve(Map.of("gvar_log_iter", 100L, "measure_only",
                true, "lr_decay_iters", "200", "train_accuracy", true, "compress_start", 5L)));
        assertEquals(List.of(200), c.lrDecayIters());
    }

    @Test
    void theAdaptiveMethodsAcceptTheGridsValues() {
        // nuq.yaml's amq runs: ..._method_amq,amq_lr_0.7,amq_epochs_40, with osnap_iter '100,2000,10000'.
        TrainerConfig.from(TrainerConfig.resolve(Map.of("method", "amq", "amq_lr", 0.7, "amq_epochs", 40L,
                "osnap_iter", "100,2000,10000")));
        TrainerConfig.from(TrainerConfig.resolve(Map.of("method", "alq_nb", "cd_epochs", 20L, "dist_num", 10L,
                "inv", true, "osnap_iter", "100,2000,50000")));
        // nuq.yaml's shared nuq settings, with its ablations' symmetric alq_nb.
        TrainerConfig.from(TrainerConfig.resolve(Map.of("method", "alq_nb", "cd_epochs", 30L, "symmetric", "",
                "inv", "", "dist_num", 350L, "per_layer", "", "ignore_small_buckets", "", "truncated_interval", 1L,
                "number_of_samples", 10L)));
        TrainerConfig.from(TrainerConfig.resolve(Map.of("method", "qinf", "per_layer", "",
                "ignore_small_buckets", "", "truncated_interval", 1L, "number_of_samples", 10L)));
        TrainerConfig.from(TrainerConfig.resolve(Map.of("method", "alqg", "alqg_lr", 0.05)));
        assertEquals("amq_lr is not a parameter of alq (only of amq, amq_nb); leave it out or give its default 0.7",
                error(Map.of("method", "alq", "amq_lr", 0.5)));
        assertEquals("symmetric is not a parameter of qsgd (only of alq, alq_nb); leave it out or give its default "
                + "false", error(Map.of("method", "qsgd", "symmetric", true)));
        assertEquals("truncated_interval must be in (0, 1], found 2.0",
                error(Map.of("method", "amq", "truncated_interval", 2.0)));
    }

    @Test
    void aFlagWithoutAValueIsTrue() {
        assertTrue(TrainerConfig.from(Map.of("nesterov", "")).nesterov());
    }

    @Test
    void valueTypesAcceptWhatTheDocumentationSays() {
        assertEquals(Optional.empty(), ValueType.INT.problem(3L));
        assertEquals(Optional.of("must be an integer, found 'abc'"), ValueType.INT.problem("abc"));
        assertEquals(Optional.empty(), ValueType.DOUBLE.problem(3L));
        assertEquals(Optional.empty(), ValueType.DOUBLE.problem(0.5));
        assertEquals(Optional.of("must be a number, found true"), ValueType.DOUBLE.problem(true));
        assertEquals(Optional.empty(), ValueType.BOOL.problem(false));
        assertEquals(Optional.of("must be true or false (or '' for true), found 1"), ValueType.BOOL.problem(1L));
        assertEquals(Optional.empty(), ValueType.STRING.problem(5L));
        assertEquals(Optional.of("must be a string, found null"), ValueType.STRING.problem(null));
        assertEquals(Optional.empty(), ValueType.INT_LIST.problem(512L));
        assertEquals(Optional.empty(), ValueType.INT_LIST.problem("512,512"));
        assertFalse(ValueType.INT_LIST.problem(1.5).isEmpty());
    }

    @Test
    void vitSizesComeFromTheirKeys() {
        assertEquals(org.gridrun.engine.model.nn.VitSizes.CIFAR, TrainerConfig.from(Map.of("model", "vit")).vit());
        assertEquals(new org.gridrun.engine.model.nn.VitSizes(8, 64, 2, 4, 128), TrainerConfig.from(Map.of(
                "model", "vit", "vit_patch", 8L, "vit_width", 64L, "vit_depth", 2L, "vit_heads", 4L, "vit_mlp", 128L))
                .vit());
        assertEquals("vit_width must be a multiple of vit_heads 3, found 64", error(Map.of("vit_width", 64L)));
        assertEquals("vit_depth must be positive, found 0", error(Map.of("vit_depth", 0L)));
    }

    @Test
    void schemaDefaultsConformToTheirTypes() {
        for (ConfigKey key : TrainerConfig.schema()) {
            assertEquals(Optional.empty(), key.type().problem(key.defaultValue()), key.name());
            assertFalse(key.help().isBlank(), key.name());
        }
    }

    @Test
    void optimizerAndScheduleKeysFailNamingTheKey() {
        assertEquals("warmup_iters must not be negative, found -5", error(Map.of("warmup_iters", -5L)));
        assertEquals("warmup_iters must not exceed niters 300, found 301", error(Map.of("warmup_iters", 301L)));
        assertEquals("lr_decay_iters must be strictly increasing, found '60000,40000'",
                error(Map.of("lr_decay_iters", "60000,40000", "niters", 80000L)));
        assertEquals("lr_decay_iters must not exceed niters 50000 (a later decay never applies), found 60000",
                error(Map.of("lr_decay_iters", "40000,60000", "niters", 50000L)));
        assertEquals("lr_decay_epochs must not exceed epochs 100 (a later decay never applies), found 101",
                error(Map.of("lr_decay_epochs", "50,101", "epochs", 100L)));
        // The seed's mnist grid decays at epoch 30 of 30: allowed, and it changes nothing.
        TrainerConfig.from(TrainerConfig.resolve(Map.of("lr_decay_epochs", "30", "epochs", 30L)));
        assertEquals("lr_decay_epochs needs epochs > 0; with niters give lr_decay_iters",
                error(Map.of("lr_decay_epochs", "100,150")));
        assertEquals("give lr_decay_iters or lr_decay_epochs, not both",
                error(Map.of("lr_decay_iters", "10", "lr_decay_epochs", "1", "epochs", 3L)));
        assertEquals("lr_decay_iters applies to lr_schedule multistep only, not cosine; leave it out",
                error(Map.of("lr_decay_iters", "10", "lr_schedule", "cosine")));
        assertEquals("lr_schedule must be one of [multistep, cosine], found 'step'",
                error(Map.of("lr_schedule", "step")));
        assertEquals("beta1 is not a parameter of optim sgd; leave it out or give its default",
                error(Map.of("beta1", 0.5)));
        assertEquals("momentum is not a parameter of optim adam; leave it out or give its default",
                error(Map.of("optim", "adam", "momentum", 0.5)));
        assertEquals("beta2 must be in [0, 1), found 1.0", error(Map.of("optim", "adam", "beta2", 1.0)));
        assertEquals("eps must be positive, found 0.0", error(Map.of("optim", "adam", "eps", 0.0)));
    }

    @Test
    void theSeedsMultistepGridIsValid() {
        TrainerConfig c = TrainerConfig.from(TrainerConfig.resolve(Map.of("lr_decay_iters", "40000,60000",
                "niters", 80000L, "warmup_iters", 500L, "no_decay_bn_bias", true, "optim", "adam")));
        assertEquals(List.of(40000, 60000), c.lrDecayIters());
        assertEquals(80000, c.totalIterations(60000));
        assertEquals(0.1 * 0.1, c.schedule(60000).at(40001), 1e-15);
        assertEquals(0.1 / 500, c.schedule(60000).at(1), 1e-15);
    }

    @Test
    void epochsAreCeilOfTrainSizeOverBatchSizeIterations() {
        // 1000 images in batches of 32: 31 full batches and one of 8, so 32 iterations an epoch (the seed's
        // epoch_iters), whatever the number of workers.
        TrainerConfig c = TrainerConfig.from(TrainerConfig.resolve(Map.of("epochs", 3L, "batch_size", 32L,
                "lr_decay_epochs", "1,2", "ngpu", 4L)));
        assertEquals(32, c.epochIterations(1000));
        assertEquals(96, c.totalIterations(1000));
        LearningRateSchedule s = c.schedule(1000);
        assertEquals(0.1, s.at(32));
        assertEquals(0.01, s.at(33), 1e-15);
        assertEquals(0.01, s.at(64), 1e-15);
        assertEquals(0.001, s.at(65), 1e-15);
        assertEquals(300, TrainerConfig.from(TrainerConfig.resolve(Map.of())).totalIterations(1000),
                "epochs 0: niters");
        TrainerConfig iters = TrainerConfig.from(TrainerConfig.resolve(Map.of("epochs", 1L, "lr_decay_iters", "40")));
        assertEquals("lr_decay_iters must not exceed the run's iterations 32 (a later decay never applies), "
                + "found 40", assertThrows(ConfigException.class, () -> iters.schedule(1000)).getMessage());
    }

    @Test
    void aJobSwitchesOffTheKeysWhoseValuesGiveTheSameResultsWithoutItsGrid() {
        Map<String, Object> params = new HashMap<>();
        params.put("ngpu", 4L);
        TrainerConfig plain = TrainerConfig.from(TrainerConfig.resolve(params));
        assertTrue(plain.cudaGraph() && plain.concurrentWorkers(), "both on by default");
        for (String key : List.of("cuda_graph", "concurrent_workers")) {
            System.setProperty("gridrun." + key, "false");
            try {
                TrainerConfig off = TrainerConfig.from(TrainerConfig.resolve(params));
                assertEquals(key.equals("cuda_graph"), !off.cudaGraph(), key);
                assertEquals(key.equals("concurrent_workers"), !off.concurrentWorkers(), key);
                System.setProperty("gridrun." + key, "true");
                params.put(key, false);
                assertFalse(key.equals("cuda_graph") ? TrainerConfig.from(TrainerConfig.resolve(params)).cudaGraph()
                        : TrainerConfig.from(TrainerConfig.resolve(params)).concurrentWorkers(),
                        "the property only switches off: a grid's false stays false");
                params.remove(key);
            } finally {
                System.clearProperty("gridrun." + key);
            }
        }
    }
}
