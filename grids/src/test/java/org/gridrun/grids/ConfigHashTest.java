package org.gridrun.grids;

import static org.gridrun.grids.Grids.each;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigHashTest {
    @TempDir
    Path dir;

    private String id(String gridMapping) {
        return Grids.expand(dir, "runs: {r: {grid: " + gridMapping + "}}\n").get(0).id();
    }

    @Test
    void idIsSixteenHexDigits() {
        assertTrue(id("{bits: 2}").matches("[0-9a-f]{16}"));
    }

    // Golden: the canonical form is what ids are made of; changing it must come with a new version tag.
    @Test
    void canonicalFormIsSortedTypedAndVersioned() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("lr", 1e-4);
        params.put("bits", 4.0);
        params.put("method", "q\tsgd");
        params.put("flag", "");
        params.put("nesterov", true);
        assertEquals("gridrun-config-v1\nbits\tn\t4\nflag\ts\t\nlr\tn\t0.0001\nmethod\ts\tq\\tsgd\nnesterov\tb\ttrue\n",
                ConfigHash.canonical(params));
    }

    @Test
    void experimentsHashTheirParamsLikeTheCanonicalForm() {
        List<Experiment> xs = Grids.expand(dir, """
                defaults: {mul: 0.3, note: "a\\tb"}
                runs:
                  r:
                    seeds: 2
                    grid:
                      - {method: [none, {nuq: {mul: [0.5, 1e-4]}}], flag: '', nesterov: [true, false]}
                      - {zip: {lr: {linspace: [0, 1, 3]}, bits: [2, 3, 4]}}
                """);
        assertEquals(18, xs.size());
        xs.forEach(x -> assertEquals(ConfigHash.id(x.params()), x.id(), x.name()));
    }

    @Test
    void idIgnoresKeyOrder() {
        assertEquals(id("{method: qsgd, bits: 4, lr: 0.1}"), id("{lr: 0.1, bits: 4, method: qsgd}"));
    }

    @Test
    void idIgnoresHowANumberIsSpelled() {
        String plain = id("{lr: 0.0001}");
        assertEquals(plain, id("{lr: 1e-4}"));
        assertEquals(plain, id("{lr: 0.00010}"));
        assertEquals(plain, id("{lr: 1.0E-4}"));
        assertEquals(id("{lr: 4}"), id("{lr: 4.0}"));
    }

    @Test
    void idChangesWithAnyValue() {
        String base = id("{method: qsgd, bits: 4}");
        assertNotEquals(base, id("{method: qsgd, bits: 2}"));
        assertNotEquals(base, id("{method: nuq, bits: 4}"));
        assertNotEquals(base, id("{method: qsgd, bits: 4, flag: ''}"));
        assertNotEquals(id("{note: '4'}"), id("{note: 4}"));
        assertNotEquals(id("{lr: 0.0001}"), id("{lr: 0.001}"));
    }

    @Test
    void idCoversSeedButNotRunPrefixOrIndex() {
        GridFile grid = Grids.load(dir, """
                runs:
                  a: {prefix: x, seeds: 2, grid: {bits: 4}}
                  b: {grid: [{bits: 8}, {bits: 4, seed: 2}]}
                """);
        List<String> a = each(grid.expand("a"), Experiment::id);
        List<String> b = each(grid.expand("b"), Experiment::id);
        assertNotEquals(a.get(0), a.get(1));
        assertEquals(a.get(1), b.get(1));
    }
}
