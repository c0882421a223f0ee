package org.gridrun.jobs.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.grids.GridException;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobGraphTest {
    @TempDir
    Path tmp;

    private Plan plan(String yaml, List<String> runs) throws Exception {
        Path file = tmp.resolve("g.yaml");
        Files.writeString(file, yaml);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            return new Planner(Workspace.at(tmp, null), store).plan(GridFile.load(file, new TrainerKeySchema()), runs);
        }
    }

    @Test
    void aRunWaitsForTheExperimentsOfTheRunItNamesWithMatchingValues() throws Exception {
        Plan plan = plan("""
                runs:
                  pretrain:
                    seeds: 2
                    grid: {niters: 5}
                  finetune:
                    after: {run: pretrain, match: [seed]}
                    seeds: 2
                    grid: {niters: 7, lr: [0.1, 0.01]}
                """, List.of("finetune"));
        assertEquals(6, plan.experiments().size(), "the run it waits for is planned with it");
        List<String> order = plan.toRun().stream().map(e -> e.record().name()).toList();
        assertTrue(order.indexOf("pretrain_000_niters_5,seed_1") < order.indexOf("finetune_000_niters_7,lr_0.1,seed_1"),
                order.toString());
        PlannedExperiment seed2 = plan.experiments().stream()
                .filter(e -> e.record().name().equals("finetune_003_niters_7,lr_0.01,seed_2")).findFirst().orElseThrow();
        assertEquals(List.of("pretrain_001_niters_5,seed_2"),
                plan.graph().prerequisites(seed2).stream().map(e -> e.record().name()).toList());
        String dot = plan.graph().toDot();
        assertTrue(dot.startsWith("strict digraph plan {") || dot.startsWith("digraph plan {"), dot);
        assertEquals(4, dot.lines().filter(l -> l.contains("->")).count(), dot);
    }

    @Test
    void runsThatWaitForEachOtherAreAGridErrorAtTheAfterThatClosesTheCircle() {
        GridException e = assertThrows(GridException.class, () -> plan("""
                runs:
                  a:
                    after: b
                    grid: {niters: 5}
                  b:
                    after: a
                    grid: {niters: 6}
                """, null));
        assertEquals(tmp.resolve("g.yaml") + ":6:12: after: runs wait for each other in a circle, a -> b -> a, so none "
                + "could start; drop one of these 'after:' entries", e.getMessage());
    }

    @Test
    void aCycleAmongExperimentsIsRejectedNamingTheExperimentsOnIt() throws Exception {
        Plan plan = plan("runs:\n  a: {grid: {niters: 5}}\n  b: {grid: {niters: 6}}\n", null);
        String a = plan.experiments().get(0).record().id();
        String b = plan.experiments().get(1).record().id();
        UserInputException e = assertThrows(UserInputException.class, () -> JobGraph.of(plan.experiments(),
                List.of(new JobGraph.Edge(a, b), new JobGraph.Edge(b, a))));
        assertTrue(e.getMessage().contains("form a cycle through runs a, b"), e.getMessage());
        assertTrue(e.getMessage().contains("a_000_niters_5") && e.getMessage().contains("b_000_niters_6"),
                e.getMessage());
    }
}
