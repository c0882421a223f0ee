package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridrun.engine.data.GeneratedText;
import org.gridrun.engine.data.VocabularyFile;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LSTM language model learns: on a generated text of a small grammar its validation perplexity falls well below
 * the vocabulary's size (what a model that knows nothing scores), both on a plain text file and on the same kind of
 * text laid out as WikiText-2, with PowerSGD's rank-2 compression of every weight matrix (Adam: plain SGD needs
 * far more steps than a unit test should take on an LSTM).
 */
class LanguageModelTrainingTest {
    @TempDir
    Path tmp;

    private Map<String, Object> params() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("model", "lstm");
        p.put("lstm_units", 24L);
        p.put("lstm_layers", 2L);
        p.put("lstm_dropout", 0.1);
        p.put("bptt", 10L);
        p.put("batch_size", 8L);
        p.put("ngpu", 2L);
        p.put("lr", 0.01); p.put("optim", "adam"); 
        p.put("clip_norm", 0.0);
        p.put("niters", 80L);
        p.put("log_interval", 10L);
        p.put("chkpt_iter", 40L);
        p.put("backend", "cpu");
        return p;
    }

    private List<MetricRecord> train(String name, Map<String, Object> params) {
        RunDir dir = RunDir.at(tmp.resolve("runs").resolve(name));
        dir.writeExperiment(new ExperimentRecord("g", "r", name, "id-" + name, params, TrainerConfig.resolve(params)));
        TrainResult result = TrainJob.run(dir, TrainListener.NONE);
        assertFalse(result.diverged());
        assertTrue(Files.isRegularFile(dir.path().resolve(VocabularyFile.NAME)));
        return MetricSpool.read(dir.metricsFile());
    }

    private static double[] values(List<MetricRecord> records, String metric) {
        return records.stream().filter(r -> r.name().equals(metric)).mapToDouble(MetricRecord::value).toArray();
    }

    @Test
    void anLstmLearnsAGeneratedTextFile() throws IOException {
        Map<String, Object> p = params();
        p.put("dataset", "text");
        p.put("path", GeneratedText.write(tmp.resolve("story.txt"), 400, 7).toString());
        assertLearns("text", p);
    }

    @Test
    void anLstmLearnsWikiText2LaidOutTextWithPowerSgd() throws IOException {
        Map<String, Object> p = params();
        p.put("dataset", "wikitext2");
        p.put("data_dir", GeneratedText.writeWikiText2(tmp.resolve("wt2"), 400, 40).toString());
        p.put("method", "powersgd");
        p.put("rank", 2L);
        p.put("error_feedback", true);
        assertLearns("wikitext2", p);
    }

    private void assertLearns(String name, Map<String, Object> p) {
        List<MetricRecord> records = train(name, p);
        double[] loss = values(records, "loss");
        double[] ppl = values(records, "ppl");
        double[] vppl = values(records, "Vppl");
        assertEquals(8, ppl.length);
        assertEquals(2, vppl.length);
        assertEquals(Math.exp(loss[7]), ppl[7], 1e-9 * ppl[7]);
        System.out.printf(Locale.ROOT, "lstm on %s: train perplexity %.1f -> %.1f, validation perplexity %.1f at "
                + "step 40, %.1f at step 80%n", name, ppl[0], ppl[7], vppl[0], vppl[1]);
        assertTrue(loss[7] < loss[0] - 1, "training loss " + loss[0] + " -> " + loss[7]);
        // About 30 words: guessing uniformly scores about 30; the grammar allows far fewer next words.
        assertTrue(vppl[1] < 12, "validation perplexity " + vppl[1]);
    }
}
