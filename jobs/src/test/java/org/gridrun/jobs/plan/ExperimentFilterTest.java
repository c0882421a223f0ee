package org.gridrun.jobs.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.jobs.UserInputException;
import org.junit.jupiter.api.Test;

class ExperimentFilterTest {
    private static ExperimentRecord experiment(String method, long bits, double lr, boolean perLayer) {
        Map<String, Object> config = Map.of("method", method, "bits", bits, "lr", lr, "per_layer", perLayer);
        return new ExperimentRecord("g", "r", method + bits, method + bits + lr, config, config);
    }

    private static final List<ExperimentRecord> GRID = List.of(experiment("alq", 3, 0.1, false),
            experiment("amq", 3, 0.1, true), experiment("alq", 4, 0.01, false), experiment("qinf", 3, 0.1, false));

    private static List<String> matching(String... where) {
        List<PlannedExperiment> planned = GRID.stream().map(e -> new PlannedExperiment(e, null, null)).toList();
        ExperimentFilter filter = ExperimentFilter.parse(List.of(where), planned);
        return GRID.stream().filter(filter::matches).map(ExperimentRecord::name).toList();
    }

    @Test
    void valuesOfOneKeyAreAlternativesAndKeysMustAllHold() {
        assertEquals(List.of("alq3", "amq3", "alq4", "qinf3"), matching());
        assertEquals(List.of("alq3", "alq4"), matching("method=alq"));
        assertEquals(List.of("alq3", "amq3", "alq4"), matching("method=alq", "method=amq"));
        assertEquals(List.of("alq3", "amq3"), matching("method=alq", "bits=3", "method=amq"));
        assertEquals(List.of("alq4"), matching("lr=1e-2"), "numbers by value");
        assertEquals(List.of("amq3"), matching("per_layer=true"));
        assertEquals(List.of(), matching("bits=three"));
    }

    @Test
    void malformedConditionsAndUnknownKeysAreRefused() {
        assertTrue(assertThrows(UserInputException.class, () -> matching("=alq")).getMessage()
                .contains("--where =alq: expected KEY=VALUE"));
        assertTrue(assertThrows(UserInputException.class, () -> matching("bits=3", "methods=alq")).getMessage()
                .contains("--where methods=alq: no experiment of the grid has the key 'methods'"));
        assertFalse(matching("method=ALQ").contains("alq3"), "strings match exactly");
    }
}
