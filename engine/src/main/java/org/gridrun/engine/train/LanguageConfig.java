package org.gridrun.engine.train;

import java.util.List;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.model.nn.Models;

/**
 * The keys of language-model training: the text, the LSTM's sizes and truncated back-propagation (gradient clipping,
 * which language models often take, is {@link Clipping}, for any model).
 *
 * @param path          the UTF-8 file {@code dataset: text} reads
 * @param characters    whether that file is read at character level (else word level)
 * @param bptt          time steps per window (truncated back-propagation through time)
 * @param evalBatchSize sequences the evaluation text is cut into
 * @param units         the embedding width and units per LSTM layer
 * @param layers        LSTM layers
 * @param dropout       the LSTM model's dropout probability
 */
public record LanguageConfig(String path, boolean characters, int bptt, int evalBatchSize, int units, int layers,
                             double dropout) {
    static final List<ConfigKey> KEYS = List.of(
            new ConfigKey("path", ValueType.STRING, "", "the UTF-8 text file dataset text reads"),
            new ConfigKey("text_level", ValueType.STRING, "word",
                    "how dataset text is tokenised: word (split on white space) or char; <eos> ends each line"),
            new ConfigKey("bptt", ValueType.INT, 30L,
                    "time steps per window of truncated back-propagation through time (language models)"),
            new ConfigKey("eval_batch_size", ValueType.INT, 10L,
                    "sequences the evaluation text is cut into (language models)"),
            new ConfigKey("lstm_units", ValueType.INT, (long) Models.LSTM_UNITS,
                    "embedding width and units per layer of the lstm model"),
            new ConfigKey("lstm_layers", ValueType.INT, (long) Models.LSTM_LAYERS, "LSTM layers of the lstm model"),
            new ConfigKey("lstm_dropout", ValueType.DOUBLE, Models.LSTM_DROPOUT,
                    "dropout probability of the lstm model, after the embedding and each LSTM layer"));

    /** The values of the keys above, range-checked; a text data set and the lstm model must come together. */
    static LanguageConfig from(Settings s, String dataset, String model, boolean trainAccuracy, int gvarLogIter) {
        boolean text = DataSets.isText(dataset);
        boolean lstm = model.equals("lstm");
        if (text != lstm) {
            throw new ConfigException(text ? "dataset " + dataset + " is text: train it with model lstm, found model "
                    + model : "model lstm is a language model: train it on dataset wikitext2 or text, found dataset "
                    + dataset);
        }
        if (text && (trainAccuracy || gvarLogIter > 0)) {
            throw new ConfigException("train_accuracy and gvar_log_iter are not available for language models");
        }
        if (dataset.equals(DataSets.TEXT) && s.string("path").isBlank()) {
            throw new ConfigException("dataset text needs path: the UTF-8 text file to read");
        }
        return new LanguageConfig(s.string("path"), s.oneOf("text_level", List.of("word", "char")).equals("char"),
                s.positiveInt("bptt"), s.positiveInt("eval_batch_size"), s.positiveInt("lstm_units"),
                s.positiveInt("lstm_layers"), s.doubleInHalfOpen("lstm_dropout", 0, 1));
    }
}
