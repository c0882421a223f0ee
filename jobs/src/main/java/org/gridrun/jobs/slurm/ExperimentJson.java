package org.gridrun.jobs.slurm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridrun.engine.run.ConfigValues;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.jobs.UserInputException;

/**
 * One experiment as a line of JSON: grid, run, name, id and the values the grid set.
 *
 * <p>A SLURM task script passes it to {@code grid-run train --experiment JSON DIR}, which stages its own run
 * directory when it starts, as the seed's scripts carried every flag in the command line: writing the scripts of a
 * 100,000-experiment grid then writes one file per script instead of 100,000 directories. The resolved config is
 * recomputed from the values, as the planner did.
 */
public final class ExperimentJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExperimentJson() {
    }

    /** The experiment as one line of JSON. */
    public static String encode(ExperimentRecord e) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("grid", e.grid());
        line.put("run", e.run());
        line.put("name", e.name());
        line.put("id", e.id());
        line.put("params", e.params());
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("cannot write experiment " + e.name() + " as JSON: " + ex.getMessage(), ex);
        }
    }

    /**
     * The experiment {@code text} holds, with its config resolved.
     *
     * @throws UserInputException when it is not one
     */
    public static ExperimentRecord decode(String text) {
        Map<String, Object> doc;
        try {
            doc = JSON.readValue(text, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new UserInputException("--experiment: not an experiment: " + e.getOriginalMessage(), e);
        }
        if (!(doc.get("params") instanceof Map<?, ?> raw)) {
            throw new UserInputException("--experiment: not an experiment: no params");
        }
        Map<String, Object> params = new LinkedHashMap<>();
        raw.forEach((k, v) -> params.put(String.valueOf(k), ConfigValues.normalise(v)));
        return new ExperimentRecord(field(doc, "grid"), field(doc, "run"), field(doc, "name"), field(doc, "id"),
                params, TrainerConfig.resolve(params));
    }

    private static String field(Map<String, Object> doc, String name) {
        Object value = doc.get(name);
        if (value == null) {
            throw new UserInputException("--experiment: not an experiment: no " + name);
        }
        return value.toString();
    }
}
