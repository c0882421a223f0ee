package org.gridrun.grids;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the grid file a {@code --grid} argument names.
 *
 * <p>In order: {@code <gridsDir>/<arg>.yaml}, {@code <gridsDir>/<arg>} when the argument already ends in
 * {@code .yaml}, then the argument as a path of its own. When none is a file, the error lists the grids in the
 * directory, with a did-you-mean hint.
 */
final class GridLocator {
    static final String EXTENSION = ".yaml";

    private GridLocator() {
    }

    static Path resolve(String arg, Path gridsDir) {
        for (Path candidate : candidates(arg, gridsDir)) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        List<String> available = available(gridsDir);
        String listing = available.isEmpty() ? gridsDir + " holds no " + EXTENSION + " grids"
                : "available grids: " + String.join(", ", available) + Suggestions.didYouMean(arg, available);
        throw new GridException("no grid '" + arg + "': found neither " + gridsDir.resolve(arg + EXTENSION)
                + " nor a file " + arg + "; " + listing);
    }

    /** The base name of a grid file: its file name without {@code .yaml}. */
    static String baseName(Path file) {
        String name = String.valueOf(file.getFileName());
        return name.endsWith(EXTENSION) ? name.substring(0, name.length() - EXTENSION.length()) : name;
    }

    private static List<Path> candidates(String arg, Path gridsDir) {
        List<Path> candidates = new ArrayList<>();
        try {
            candidates.add(gridsDir.resolve(arg + EXTENSION));
            if (arg.endsWith(EXTENSION)) {
                candidates.add(gridsDir.resolve(arg));
            }
            candidates.add(Path.of(arg));
        } catch (InvalidPathException e) {
            // a name no file system accepts names no grid; the error lists those that exist
        }
        return candidates;
    }

    private static List<String> available(Path gridsDir) {
        try (Stream<Path> files = Files.list(gridsDir)) {
            return files.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(EXTENSION))
                    .map(GridLocator::baseName).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
