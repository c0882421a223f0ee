package org.gridrun.engine.run;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One experiment's run directory, {@code runs/<grid>/<run>/<experiment-name>/}: everything a job needs and leaves.
 *
 * <p>It holds {@code experiment.yaml} (the resolved config), {@code status} (the state history), {@code metrics.csv}
 * (the metric spool), {@code log} (the job's output) and {@code checkpoint.bin} (the trainer's latest checkpoint,
 * from which a stopped job resumes). A job needs nothing but this directory and the jar.
 */
public final class RunDir {
    public static final String EXPERIMENT_FILE = "experiment.yaml";
    public static final String STATUS_FILE = "status";
    public static final String METRICS_FILE = "metrics.csv";
    public static final String LOG_FILE = "log";
    public static final String CHECKPOINT_FILE = "checkpoint.bin";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));

    private static final String ADVICE = "stage it again from its grid (grid-run --grid GRID writes it), or move "
            + "the run directory aside";

    private final Path path;

    private RunDir(Path path) {
        this.path = path;
    }

    /** The run directory at {@code path}; nothing is created. */
    public static RunDir at(Path path) {
        return new RunDir(path.toAbsolutePath().normalize());
    }

    public Path path() {
        return path;
    }

    public Path experimentFile() {
        return path.resolve(EXPERIMENT_FILE);
    }

    public Path metricsFile() {
        return path.resolve(METRICS_FILE);
    }

    public Path logFile() {
        return path.resolve(LOG_FILE);
    }

    /** The trainer's latest checkpoint; the file exists once a job has saved one. */
    public Path checkpointFile() {
        return path.resolve(CHECKPOINT_FILE);
    }

    /** The state history of this directory. */
    public StatusFile status() {
        return new StatusFile(path.resolve(STATUS_FILE));
    }

    /** Whether this directory holds an experiment. */
    public boolean exists() {
        return Files.isRegularFile(experimentFile());
    }

    /** Creates the directory and writes {@code experiment.yaml}, replacing it atomically. */
    public void writeExperiment(ExperimentRecord experiment) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("grid", experiment.grid());
        doc.put("run", experiment.run());
        doc.put("name", experiment.name());
        doc.put("id", experiment.id());
        doc.put("params", experiment.params());
        doc.put("config", experiment.config());
        try {
            Files.createDirectories(path);
            Path tmp = path.resolve(EXPERIMENT_FILE + ".tmp");
            YAML.writeValue(tmp.toFile(), doc);
            Files.move(tmp, experimentFile(), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + experimentFile() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads {@code experiment.yaml}; a missing file fails naming it, a malformed one with a {@link BadFileException}
     * at the line and column where YAML stopped, or naming the field that is missing or not a mapping.
     */
    public ExperimentRecord readExperiment() {
        Object parsed;
        try {
            String text = BadFileException.utf8(experimentFile(), Files.readAllBytes(experimentFile()), ADVICE);
            parsed = YAML.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw bad(at == null || at.getLineNr() < 1 ? null : at.getLineNr() + ":" + at.getColumnNr(),
                    "not the YAML mapping gridrun writes ("
                            + BadFileException.oneLine(e.getOriginalMessage()) + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + experimentFile() + ": " + e.getMessage(), e);
        }
        if (parsed == null) {
            throw bad(null, "empty, expected the mapping gridrun writes", null);
        }
        if (!(parsed instanceof Map<?, ?> root)) {
            throw bad(null, "not the YAML mapping gridrun writes: found " + (parsed instanceof List<?> ? "a list"
                    : "a single value"), null);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        root.forEach((k, v) -> doc.put(String.valueOf(k), v));
        return new ExperimentRecord(text(doc, "grid"), text(doc, "run"), text(doc, "name"), text(doc, "id"),
                mapping(doc, "params"), mapping(doc, "config"));
    }

    private Map<String, Object> mapping(Map<String, Object> doc, String field) {
        if (!(doc.get(field) instanceof Map<?, ?> map)) {
            throw bad(null, "field '" + field + "' must be a mapping", null);
        }
        Map<String, Object> typed = new LinkedHashMap<>();
        map.forEach((k, v) -> typed.put(String.valueOf(k), ConfigValues.normalise(v)));
        return typed;
    }

    private String text(Map<String, Object> doc, String field) {
        Object value = doc.get(field);
        if (value == null || value instanceof Map || value instanceof java.util.List) {
            throw bad(null, "field '" + field + "' " + (value == null ? "is missing" : "must be text"), null);
        }
        return String.valueOf(value);
    }

    private BadFileException bad(String position, String problem, Throwable cause) {
        return new BadFileException(experimentFile(), position, problem, ADVICE, cause);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
