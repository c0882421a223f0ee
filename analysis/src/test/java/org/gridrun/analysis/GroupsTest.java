package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupsTest {
    private static StoredExperiment experiment(String name, Object... keyValues) {
        return inRun("r", name, keyValues);
    }

    private static StoredExperiment inRun(String run, String name, Object... keyValues) {
        Map<String, Object> params = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            params.put((String) keyValues[i], keyValues[i + 1]);
        }
        return new StoredExperiment("id-" + name, "g", run, name, null, params, params, null, null, null, null, null,
                null);
    }

    @Test
    void experimentsDifferingOnlyInSeedShareAGroupInFirstSeenOrder() {
        List<SeedGroup> groups = Groups.bySeed(List.of(
                experiment("a", "method", "qsgd", "bits", 4L, "seed", 1L),
                experiment("b", "method", "alq", "bits", 4L, "seed", 1L),
                experiment("c", "method", "qsgd", "bits", 4L, "seed", 2L),
                experiment("d", "method", "alq", "bits", 4L, "seed", 2L),
                experiment("e", "method", "alq", "bits", 4L, "seed", 3L)));
        assertEquals(2, groups.size());
        assertEquals(List.of("a", "c"), groups.get(0).experiments().stream().map(StoredExperiment::name).toList());
        assertEquals(3, groups.get(1).seeds());
        assertEquals("method=qsgd", groups.get(0).label());
        assertEquals("method=alq", groups.get(1).label());
        assertEquals(Map.of("method", "alq", "bits", 4L), groups.get(1).params());
    }

    @Test
    void labelsListEveryParamWhenAllVary() {
        List<SeedGroup> groups = Groups.bySeed(List.of(
                experiment("a", "method", "qsgd", "bits", 4L, "seed", 1L),
                experiment("b", "method", "alq", "bits", 2L, "seed", 1L)));
        assertEquals("method=qsgd, bits=4", groups.get(0).label());
        assertEquals("method=alq, bits=2", groups.get(1).label());
    }

    @Test
    void aSingleGroupIsLabelledWithAllItsParams() {
        List<SeedGroup> groups = Groups.bySeed(List.of(
                experiment("a", "method", "qsgd", "bits", 4L, "seed", 1L),
                experiment("b", "method", "qsgd", "bits", 4L, "seed", 2L)));
        assertEquals(1, groups.size());
        assertEquals("method=qsgd, bits=4", groups.get(0).label());
    }

    @Test
    void aMissingKeyCountsAsVarying() {
        List<SeedGroup> groups = Groups.bySeed(List.of(
                experiment("a", "method", "none", "lr", 0.1, "seed", 1L),
                experiment("b", "method", "qsgd", "bits", 8L, "lr", 0.1, "seed", 1L)));
        assertEquals("method=none", groups.get(0).label());
        assertEquals("method=qsgd, bits=8", groups.get(1).label());
    }

    @Test
    void onlySeedsGiveTheSeedOnlyLabel() {
        List<SeedGroup> groups = Groups.bySeed(List.of(experiment("a", "seed", 1L), experiment("b", "seed", 2L)));
        assertEquals(1, groups.size());
        assertEquals(Groups.NO_PARAMS, groups.get(0).label());
    }

    @Test
    void groupingByChosenKeysPoolsEverythingElse() {
        List<SeedGroup> groups = Groups.by(List.of(
                experiment("a", "method", "qsgd", "bits", 4L, "bucket_size", 64L, "seed", 1L),
                experiment("b", "method", "qsgd", "bits", 4L, "bucket_size", 8192L, "seed", 1L),
                experiment("c", "method", "qsgd", "bits", 2L, "bucket_size", 64L, "seed", 1L),
                experiment("d", "method", "alq", "bits", 4L, "bucket_size", 64L, "seed", 2L)),
                List.of("bits", "method"));
        assertEquals(3, groups.size());
        assertEquals(List.of("a", "b"), groups.get(0).experiments().stream().map(StoredExperiment::name).toList());
        assertEquals(Map.of("bits", 4L, "method", "qsgd"), groups.get(0).params());
        assertEquals("bits=2, method=qsgd", groups.get(1).label());
    }

    @Test
    void aMisspeltGroupingKeyIsAnErrorNamingTheParams() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Groups.by(List.of(experiment("a", "method", "qsgd", "seed", 1L)), List.of("metod")));
        assertEquals("no experiment has the param 'metod'; params: method, seed", e.getMessage());
    }

    @Test
    void inAGridOfSeveralRunsAGroupIsNamedByItsRunAndWhatVariesWithinIt() {
        List<SeedGroup> groups = Groups.bySeed(List.of(
                inRun("nuq", "a", "gvar_iter", 50L, "method", "qinf", "bits", 3L, "seed", 1L),
                inRun("nuq", "b", "gvar_iter", 50L, "method", "trn", "bits", 3L, "seed", 1L),
                inRun("powersgd", "c", "method", "powersgd", "rank", 1L, "seed", 1L),
                inRun("powersgd", "d", "method", "powersgd", "rank", 2L, "seed", 1L),
                inRun("baseline", "e", "method", "none", "seed", 1L)));
        assertEquals(List.of("nuq: method=qinf", "nuq: method=trn", "powersgd: rank=1", "powersgd: rank=2",
                "baseline"), groups.stream().map(SeedGroup::label).toList());
    }
}
