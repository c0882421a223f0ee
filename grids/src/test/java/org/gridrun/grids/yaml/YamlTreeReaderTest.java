package org.gridrun.grids.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class YamlTreeReaderTest {

    private static Mapping root(String yaml) {
        YamlDocument document = YamlTreeReader.read(yaml);
        assertEquals(List.of(), document.problems());
        return (Mapping) document.root();
    }

    private static List<String> keys(Node node) {
        return ((Mapping) node).entries().stream().map(Mapping.Entry::name).toList();
    }

    private static Object value(Node mapping, String key) {
        return ((Scalar) ((Mapping) mapping).get(key).orElseThrow()).value();
    }

    @Test
    void nodesKnowWhereTheyWereWritten() {
        Mapping root = root("a: 1\nb:\n  - x\n  - [y, 'z']\n");
        assertEquals(new Mark(1, 1), root.mark());
        assertEquals(new Mark(1, 1), root.entry("a").orElseThrow().key().mark());
        assertEquals(new Mark(1, 4), root.get("a").orElseThrow().mark());
        Sequence b = (Sequence) root.get("b").orElseThrow();
        assertEquals(new Mark(3, 3), b.mark());
        assertEquals(new Mark(4, 5), b.items().get(1).mark());
        assertEquals(new Mark(4, 9), ((Sequence) b.items().get(1)).items().get(1).mark());
    }

    @Test
    void scalarsAreTypedAndKeepTheirText() {
        Mapping root = root("i: 0x1F\nf: 1.50\ne: 1e-4\nt: yes\nq: '1.50'\nn: ~\ns: hi\ninf: -.inf\nempty: ''\n");
        assertEquals(31L, value(root, "i"));
        assertEquals(1.5, value(root, "f"));
        assertEquals(1e-4, value(root, "e"));
        assertEquals(true, value(root, "t"));
        assertEquals("1.50", value(root, "q"));
        assertNull(value(root, "n"));
        assertEquals("hi", value(root, "s"));
        assertEquals(Double.NEGATIVE_INFINITY, value(root, "inf"));
        assertEquals("", value(root, "empty"));
        assertEquals(List.of("0x1F", "1.50", "1e-4", "yes", "1.50", "~", "hi", "-.inf", ""),
                root.entries().stream().map(e -> ((Scalar) e.value()).text()).toList());
    }

    @Test
    void keysAreTypedLikeValuesUnlessQuoted() {
        Mapping root = root("3: a\n'4': b\n0.5: c\nyes: d\nname: e\n\"on\": f\n0x10: g\n~: h\n");
        assertEquals(Arrays.asList(3L, "4", 0.5, true, "name", "on", 16L, null),
                root.entries().stream().map(e -> e.key().value()).toList());
        assertEquals(List.of("3", "4", "0.5", "yes", "name", "on", "0x10", "~"), keys(root));
        assertEquals(new Mark(2, 1), root.entries().get(1).key().mark());
    }

    @Test
    void anAliasIsTheAnchoredNode() {
        Mapping root = root("a: &list [1, 2]\nb: *list\nc: &one 3\nd: *one\n");
        assertSame(root.get("a").orElseThrow(), root.get("b").orElseThrow());
        assertSame(root.get("c").orElseThrow(), root.get("d").orElseThrow());
        assertEquals(new Mark(1, 10), root.get("b").orElseThrow().mark());
    }

    @Test
    void anchorsAndTagsAreSkippedToPointAtTheContent() {
        Mapping root = root("""
                s: !!str &s 4
                b: &b # a block
                  k: *s
                f: [&f x, *f]
                """);
        assertEquals("4", value(root, "s"));
        assertEquals(new Mark(1, 13), root.get("s").orElseThrow().mark());
        assertEquals(new Mark(3, 3), root.get("b").orElseThrow().mark());
        assertSame(root.get("s").orElseThrow(), ((Mapping) root.get("b").orElseThrow()).get("k").orElseThrow());
        Sequence f = (Sequence) root.get("f").orElseThrow();
        assertEquals(new Mark(4, 8), f.items().get(0).mark());
        assertSame(f.items().get(0), f.items().get(1));
    }

    @Test
    void offsetsCountCodePoints() {
        Mapping root = root("e: \uD83D\uDE00\uD83D\uDE00\na: &a 1\nb: *a\n");
        assertEquals(new Mark(2, 7), root.get("a").orElseThrow().mark());
        assertSame(root.get("a").orElseThrow(), root.get("b").orElseThrow());
    }

    @Test
    void mergedKeysComeFirstAndExplicitKeysOverrideInPlace() {
        Mapping root = root("""
                s: &s {x: 1, y: 2}
                m:
                  z: 0
                  <<: *s
                  y: 20
                """);
        Node m = root.get("m").orElseThrow();
        assertEquals(List.of("x", "y", "z"), keys(m));
        assertEquals(20L, value(m, "y"));
    }

    @Test
    void aMergedListGivesPrecedenceToEarlierMappings() {
        Mapping root = root("""
                a: &a {x: 1, y: 1}
                b: &b {y: 2, w: 2}
                m: {<<: [*a, *b], v: 0}
                """);
        Node m = root.get("m").orElseThrow();
        assertEquals(List.of("x", "y", "w", "v"), keys(m));
        assertEquals(1L, value(m, "y"));
        assertEquals(2L, value(m, "w"));
    }

    @Test
    void mergesNest() {
        Mapping root = root("""
                a: &a {x: 1}
                b: &b {<<: *a, y: 2}
                m: {<<: *b, z: 3}
                """);
        assertEquals(List.of("x", "y", "z"), keys(root.get("m").orElseThrow()));
        assertEquals(List.of("x", "y"), keys(root.get("b").orElseThrow()));
    }

    @Test
    void problemsAreCollectedAndTheTreeIsStillBuilt() {
        YamlDocument document = YamlTreeReader.read("a: 1\nb: *nope\na: 2\n");
        assertEquals(List.of(
                new YamlProblem(new Mark(2, 4),
                        "alias '*nope' names no anchor defined before it; define '&nope' first"),
                new YamlProblem(new Mark(3, 1),
                        "duplicate key 'a' at lines 1 and 3; a key may appear once in a mapping")),
                document.problems());
        Mapping root = (Mapping) document.root();
        assertEquals(1L, value(root, "a"));
        assertTrue(((Scalar) root.get("b").orElseThrow()).isNull());
    }

    @Test
    void malformedYamlIsOneProblemWithoutTree() {
        YamlDocument document = YamlTreeReader.read("a: [1\n");
        assertNull(document.root());
        assertEquals(List.of(new YamlProblem(new Mark(2, 1),
                "expected ',' or ']', but got <stream end> (while parsing a flow sequence at 1:4)")),
                document.problems());
    }

    @Test
    void anEmptySourceHasNoRootAndNoProblem() {
        YamlDocument document = YamlTreeReader.read("# nothing here\n");
        assertNull(document.root());
        assertEquals(List.of(), document.problems());
    }
}
