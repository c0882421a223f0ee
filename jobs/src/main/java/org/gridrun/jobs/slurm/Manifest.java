package org.gridrun.jobs.slurm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.ConfigValues;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.jobs.UserInputException;

/**
 * The experiments of one task script, one JSON object per line: grid, run, name, id and the values the grid set.
 *
 * <p>A SLURM job stages its own run directory from its line when it starts ({@code grid-run train --manifest
 * FILE:LINE DIR}), so writing the scripts of a 100,000-experiment grid writes one small file per script instead of
 * 100,000 directories; the resolved config is recomputed from the values, as the planner did.
 */
public final class Manifest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Manifest() {
    }

    /** Writes the experiments, line {@code i} holding {@code experiments.get(i)} (1-based line i + 1). */
    public static void write(Path file, List<ExperimentRecord> experiments) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            for (ExperimentRecord e : experiments) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("grid", e.grid());
                line.put("run", e.run());
                line.put("name", e.name());
                line.put("id", e.id());
                line.put("params", e.params());
                out.write(JSON.writeValueAsString(line));
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The experiment on line {@code line} (1-based) of {@code file}, with its config resolved.
     *
     * @throws UserInputException when the file or line is missing or not an experiment
     */
    public static ExperimentRecord read(Path file, int line) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String text = null;
            for (int i = 0; i < line; i++) {
                text = in.readLine();
                if (text == null) {
                    throw new UserInputException(file + " has no line " + line);
                }
            }
            return parse(file, line, text);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static ExperimentRecord parse(Path file, int line, String text) {
        Map<String, Object> doc;
        try {
            doc = JSON.readValue(text, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new UserInputException(file + ":" + line + ": not an experiment: " + e.getOriginalMessage(), e);
        }
        if (!(doc.get("params") instanceof Map<?, ?> raw)) {
            throw new UserInputException(file + ":" + line + ": not an experiment: no params");
        }
        Map<String, Object> params = new LinkedHashMap<>();
        raw.forEach((k, v) -> params.put(String.valueOf(k), ConfigValues.normalise(v)));
        return new ExperimentRecord(field(doc, "grid", file, line), field(doc, "run", file, line),
                field(doc, "name", file, line), field(doc, "id", file, line), params,
                TrainerConfig.resolve(params));
    }

    private static String field(Map<String, Object> doc, String name, Path file, int line) {
        Object value = doc.get(name);
        if (value == null) {
            throw new UserInputException(file + ":" + line + ": not an experiment: no " + name);
        }
        return value.toString();
    }
}
