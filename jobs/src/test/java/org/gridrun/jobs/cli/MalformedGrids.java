package org.gridrun.jobs.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Grid files that are wrong on purpose, generated from a valid one with a seeded {@link Random}: syntax, types,
 * ranges, unknown keys, alias bombs, cycles, traversal in names, and bytes that are not text.
 *
 * <p>Each case is wrong by construction, whatever the draw: a mutation that might leave a valid file is not made.
 */
final class MalformedGrids {
    /** A valid grid: the control case, and what the mutations start from. */
    static final String VALID = """
            defaults:
              hidden: 16
              ngpu: 2
              batch_size: 8
              niters: 40
            runs:
              base:
                seeds: 2
                grid:
                  method: [none, qsgd]
                  bits: 4
              tuned:
                after: base
                grid:
                  method: qsgd
                  bits: [2, 8]
                  lr: 0.05
            """;

    /** The categories, in order, each with its generator. */
    static final List<String> CATEGORIES = List.of("syntax", "types", "ranges", "unknown keys", "alias bombs",
            "cycles", "traversal", "binary");

    private static final List<String> KEYS = List.of("hidden", "ngpu", "batch_size", "niters", "method", "bits", "lr",
            "seeds", "after", "grid", "runs", "defaults", "momentum", "bucket_size", "log_interval", "chkpt_iter",
            "prefix", "exclude", "slurm", "shared", "include", "seed", "optim", "model", "dataset", "epochs");

    /**
     * One generated case: the grid file's name and bytes, and other files it includes (name to text).
     *
     * @param category one of {@link #CATEGORIES}
     * @param file     the grid file's name
     * @param bytes    its content
     * @param others   files beside it that it includes
     */
    record Case(String category, String file, byte[] bytes, Map<String, String> others) {
        /** Whether the file is text that YAML reads, so that its problems have a line and column. */
        boolean isText() {
            return !category.equals("binary") && !file.equals("...yaml");
        }
    }

    private final Random random;

    MalformedGrids(long seed) {
        this.random = new Random(seed);
    }

    /** {@code perCategory} cases of each category, in category order. */
    List<Case> generate(int perCategory) {
        List<Function<Integer, Case>> generators = List.of(this::syntax, this::types, this::ranges, this::unknownKey,
                this::aliasBomb, this::cycle, this::traversal, this::binary);
        List<Case> cases = new ArrayList<>();
        for (Function<Integer, Case> generator : generators) {
            for (int i = 0; i < perCategory; i++) {
                cases.add(generator.apply(i));
            }
        }
        return cases;
    }

    private Case syntax(int i) {
        List<String> lines = new ArrayList<>(VALID.lines().toList());
        int at = 1 + random.nextInt(lines.size() - 1);
        String indent = lines.get(at).replaceAll("\\S.*", "");
        switch (i % 6) {
            case 0 -> lines.set(at, indent + "method: [none, qsgd");
            case 1 -> lines.add(at, "\tbits: 2");
            case 2 -> lines.set(at, indent + "method: \"none");
            case 3 -> lines.set(at, indent + "bits: 2: 3");
            case 4 -> lines.add(at, "]");
            default -> lines.add(at, indent + "- stray item");
        }
        return text("syntax", i, String.join("\n", lines) + "\n");
    }

    private Case types(int i) {
        String[][] bad = {{"bits", "four"}, {"bits", "2.5"}, {"bits", "[[1]]"}, {"bits", "{a: 1}"}, {"bits", "true"},
            {"niters", "ten"}, {"niters", "1.5"}, {"lr", "fast"}, {"lr", "true"}, {"lr", "[a]"},
            {"batch_size", "x"}, {"momentum", "high"}, {"nesterov", "3"}, {"hidden", "[a, b]"},
            {"bucket_size", "big"}, {"log_interval", "[1, [2]]"}, {"method", "{qsgd: x}"}, {"method", "[[none]]"}};
        String[] pick = bad[random.nextInt(bad.length)];
        return text("types", i, withTunedValue(pick[0], pick[1]));
    }

    private Case ranges(int i) {
        String[][] bad = {{"bits", "0"}, {"bits", "99"}, {"bits", "-1"}, {"niters", "0"}, {"niters", "-5"},
            {"lr", "-1"}, {"lr", "0"}, {"batch_size", "0"}, {"ngpu", "0"}, {"chkpt_iter", "0"},
            {"log_interval", "-1"}, {"momentum", "2"}, {"momentum", "-0.5"}, {"hidden", "\"-3\""},
            {"lr", "{linspace: [0.1, 1, 100000000]}"}};
        if (i % 5 == 4) {
            return text("ranges", i, VALID.replace("seeds: 2", "seeds: " + (random.nextBoolean() ? "0" : "20001")));
        }
        String[] pick = bad[random.nextInt(bad.length)];
        return text("ranges", i, withTunedValue(pick[0], pick[1]));
    }

    /** {@link #VALID} with {@code key: value} in the grid of its last run, replacing the key's value there. */
    private static String withTunedValue(String key, String value) {
        String tuned = "      method: qsgd\n      bits: [2, 8]\n      lr: 0.05\n";
        String changed = switch (key) {
            case "method" -> tuned.replace("method: qsgd", "method: " + value);
            case "bits" -> tuned.replace("bits: [2, 8]", "bits: " + value);
            case "lr" -> tuned.replace("lr: 0.05", "lr: " + value);
            default -> tuned + "      " + key + ": " + value + "\n";
        };
        return VALID.replace(tuned, changed);
    }

    private Case unknownKey(int i) {
        String key = KEYS.get(random.nextInt(KEYS.size()));
        String wrong = misspell(key);
        String[] places = {"defaults:\n", "    grid:\n", "  tuned:\n", ""};
        String place = places[i % places.length];
        String indent = place.isEmpty() ? "" : place.stripTrailing().replaceAll("\\S.*", "") + "  ";
        String line = indent + wrong + ": 1\n";
        return text("unknown keys", i, place.isEmpty() ? VALID + line : VALID.replaceFirst(place, place + line));
    }

    private String misspell(String key) {
        String wrong = key;
        while (KEYS.contains(wrong)) {
            int at = random.nextInt(key.length());
            wrong = switch (random.nextInt(4)) {
                case 0 -> key.substring(0, at) + key.substring(at + 1);
                case 1 -> key.substring(0, at) + key.charAt(at) + key.substring(at);
                case 2 -> key.substring(0, at) + (char) ('a' + random.nextInt(26)) + key.substring(at + 1);
                default -> "zz_" + key;
            };
            if (wrong.isEmpty() || wrong.equals("<<")) {
                wrong = key;
            }
        }
        return wrong;
    }

    private Case aliasBomb(int i) {
        int depth = 3 + random.nextInt(10);
        int width = 2 + random.nextInt(11);
        StringBuilder shared = new StringBuilder("shared:\n  l0: &l0 [");
        shared.append("1, ".repeat(width - 1)).append("1]\n");
        for (int d = 1; d <= depth; d++) {
            shared.append("  l").append(d).append(": &l").append(d).append(" [")
                    .append(("*l" + (d - 1) + ", ").repeat(width - 1)).append("*l").append(d - 1).append("]\n");
        }
        String top = "*l" + depth;
        String use = switch (i % 5) {
            case 0 -> VALID.replace("bits: [2, 8]", "bits: " + top);
            case 1 -> VALID.replace("seeds: 2", "seeds: " + top);
            case 2 -> VALID.replace("  hidden: 16", "  hidden: " + top);
            case 3 -> VALID.replace("lr: 0.05", "lr: *nowhere");
            default -> VALID.replace("lr: 0.05", "lr: &self [*self]");
        };
        return text("alias bombs", i, shared + use);
    }

    private Case cycle(int i) {
        String name = "g" + i + ".yaml";
        return switch (i % 4) {
            case 0 -> new Case("cycles", name, bytes("include: [" + name + "]\n" + VALID), Map.of());
            case 1 -> {
                int files = 2 + random.nextInt(4);
                Map<String, String> others = new LinkedHashMap<>();
                for (int f = 1; f < files; f++) {
                    String next = f + 1 < files ? "c" + i + "_" + (f + 1) + ".yaml" : name;
                    others.put("c" + i + "_" + f + ".yaml", "include: [" + next + "]\nruns:\n  r" + f
                            + ":\n    grid: {method: none}\n");
                }
                yield new Case("cycles", name, bytes("include: [c" + i + "_1.yaml]\n" + VALID), others);
            }
            case 2 -> text("cycles", i, VALID.replace("    grid:\n      method: [none, qsgd]",
                    "    after: tuned\n    grid:\n      method: [none, qsgd]"));
            default -> text("cycles", i, VALID.replace("after: base", "after: [base, tuned]"));
        };
    }

    private Case traversal(int i) {
        String[] runNames = {"..", ".", "../escape", "a/b", "/etc", "x\\\\y", "~", "a b", "../../..", "..\\\\.."};
        return switch (i % 4) {
            case 0, 1 -> text("traversal", i, VALID.replace("  tuned:\n", "  \""
                    + runNames[random.nextInt(runNames.length)] + "\":\n"));
            case 2 -> text("traversal", i, "include: [" + (random.nextBoolean() ? "../../../../../../etc/hostname"
                    : "/etc/passwd") + "]\n" + VALID);
            default -> new Case("traversal", "...yaml", bytes(VALID), Map.of());
        };
    }

    private Case binary(int i) {
        byte[] base = bytes(VALID);
        byte[] out = switch (i % 5) {
            case 0 -> {
                byte[] noise = new byte[1 + random.nextInt(4096)];
                random.nextBytes(noise);
                noise[random.nextInt(noise.length)] = (byte) 0xFF;
                yield noise;
            }
            case 1 -> {
                byte[] b = base.clone();
                b[random.nextInt(b.length)] = 0;
                yield b;
            }
            case 2 -> VALID.getBytes(StandardCharsets.UTF_16LE);
            case 3 -> {
                byte[] b = base.clone();
                b[0] = 0x1f;
                b[1] = (byte) 0x8b;
                yield b;
            }
            default -> {
                byte[] b = base.clone();
                b[random.nextInt(b.length)] = (byte) (0xC0 + random.nextInt(0x20));
                b[b.length - 1] = (byte) 0xFE;
                yield b;
            }
        };
        return new Case("binary", "g" + i + ".yaml", out, Map.of());
    }

    private static Case text(String category, int i, String yaml) {
        return new Case(category, "g" + i + ".yaml", bytes(yaml), Map.of());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
