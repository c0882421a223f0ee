package org.gridrun.grids;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Mark;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;
import org.gridrun.grids.yaml.YamlDocument;
import org.gridrun.grids.yaml.YamlTreeReader;

/**
 * Reads a grid file and, through {@code include:}, the files it includes.
 *
 * <p>{@code include} takes a file name or a list of them, each resolved against the including file's folder. The
 * sources come back included files first, depth-first in the order named, each before the file that includes it;
 * a file included twice (by two files, say) is read once, where first named. A file that includes itself, directly
 * or through others, is a problem naming the chain. Every file's top level must be a mapping of the known keys.
 */
final class SourceLoader {
    static final String INCLUDE = "include";
    static final List<String> TOP_KEYS = List.of("defaults", "runs", "shared", "include", "slurm");

    private final List<Source> sources = new ArrayList<>();
    private final Set<Path> loaded = new HashSet<>();
    private final List<Path> chain = new ArrayList<>();
    private final List<String> chainShown = new ArrayList<>();

    private SourceLoader() {
    }

    /** The sources of {@code root}, whose text is {@code text}, in merge order: the root comes last. */
    static List<Source> load(Path root, String text, ProblemList problems) {
        SourceLoader loader = new SourceLoader();
        loader.file(root, text, problems, true);
        return loader.sources;
    }

    private void file(Path path, String text, ProblemList problems, boolean root) {
        Path identity = identity(path);
        loaded.add(identity);
        chain.add(identity);
        chainShown.add(problems.file());
        YamlDocument document = YamlTreeReader.read(text);
        problems.addAll(document.problems());
        topLevel(document, problems, root).ifPresent(top -> {
            top.get(INCLUDE).ifPresent(node -> includes(path, node, problems));
            sources.add(new Source(top, problems));
        });
        chain.remove(chain.size() - 1);
        chainShown.remove(chainShown.size() - 1);
    }

    private Optional<Mapping> topLevel(YamlDocument document, ProblemList problems, boolean root) {
        Node top = document.root();
        if (top == null) {
            if (document.problems().isEmpty() && root) {
                problems.add(new Mark(1, 1), "the grid file is empty; it needs 'runs:' with at least one run");
            }
            return Optional.empty();
        }
        if (!(top instanceof Mapping mapping)) {
            problems.add(top.mark(), "a grid file is a mapping with 'runs:' (and optionally 'defaults:' and"
                    + " 'shared:'); found " + top.describe());
            return Optional.empty();
        }
        mapping.entries().stream().filter(e -> !TOP_KEYS.contains(e.name())).forEach(e -> problems.add(
                e.key().mark(), "unknown top-level key '" + e.name() + "'" + Suggestions.didYouMean(e.name(), TOP_KEYS)
                        + " (a grid file takes " + String.join(", ", TOP_KEYS) + ")"));
        return Optional.of(mapping);
    }

    private void includes(Path from, Node node, ProblemList problems) {
        List<Node> items = node instanceof Sequence list ? list.items() : List.of(node);
        for (Node item : items) {
            if (!(item instanceof Scalar name) || name.isNull() || name.text().isBlank()) {
                problems.add(item.mark(), "include takes a file name or a list of file names, found "
                        + item.describe());
                continue;
            }
            Path target;
            try {
                target = from.resolveSibling(name.text()).normalize();
            } catch (InvalidPathException e) {
                problems.add(item.mark(), "include: '" + name.text() + "' is not a file name");
                continue;
            }
            include(target, item.mark(), problems);
        }
    }

    private void include(Path target, Mark mark, ProblemList problems) {
        String shown = target.toString();
        Path identity = identity(target);
        int at = chain.indexOf(identity);
        if (at >= 0) {
            problems.add(mark, "include cycle: " + String.join(" -> ", chainShown.subList(at, chainShown.size()))
                    + " -> " + shown + "; a file cannot include itself, directly or through other files");
            return;
        }
        if (loaded.contains(identity)) {
            return;
        }
        try {
            file(target, Files.readString(target), problems.in(shown), false);
        } catch (NoSuchFileException e) {
            problems.add(mark, "include: no file " + shown);
        } catch (CharacterCodingException e) {
            problems.add(mark, "include: cannot read " + shown + ": it is not UTF-8 text");
        } catch (IOException e) {
            problems.add(mark, "include: cannot read " + shown + ": " + e.getMessage());
        }
    }

    /** The same file, however it was named: its real path when it exists. */
    private static Path identity(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException | SecurityException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
