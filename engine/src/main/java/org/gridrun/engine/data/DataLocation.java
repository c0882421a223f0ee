package org.gridrun.engine.data;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where one data set's files may be, and the error that says how to get them when they are not there.
 *
 * <p>A directory given in the config ({@code data_dir}) wins; else the directory in {@code GRIDRUN_DATA_DIR}; else
 * the system directory a Debian package installs to, when it holds every file. A given directory is searched
 * itself, then each of the data set's subdirectories beneath it (its name, the directory its archive unpacks to):
 * the first that holds every file is read, and when none does the error names each missing file, every directory
 * looked in, and how to get the files. A file whose name ends in {@code .gz} is also accepted without it.
 *
 * <p>A data set stored as folders of files (ImageNet's {@code train} and {@code val}) is located the same way by
 * {@link #folders}: then the names are directories that must all be present.
 */
final class DataLocation {
    /** The environment variable naming a directory with data sets. */
    static final String ENV = "GRIDRUN_DATA_DIR";

    private final String title;
    private final List<String> files;
    private final List<String> subdirectories;
    private final Path systemDir;
    private final String howToGet;
    private final boolean folders;

    /**
     * @param title          the data set's name in messages, e.g. {@code CIFAR-10}
     * @param files          the file names that must all be present
     * @param subdirectories where beneath a given directory the files may also be, in search order
     * @param systemDir      where a system package installs them; null when there is none
     * @param howToGet       the end of the missing-files message: how to install or download them
     */
    DataLocation(String title, List<String> files, List<String> subdirectories, Path systemDir, String howToGet) {
        this(title, files, subdirectories, systemDir, howToGet, false);
    }

    private DataLocation(String title, List<String> files, List<String> subdirectories, Path systemDir,
            String howToGet, boolean folders) {
        this.title = title;
        this.files = List.copyOf(files);
        this.subdirectories = List.copyOf(subdirectories);
        this.systemDir = systemDir;
        this.howToGet = howToGet;
        this.folders = folders;
    }

    /**
     * Where a data set stored as the folders {@code names} (all present) may be, searched as files are; messages
     * call them folders.
     */
    static DataLocation folders(String title, List<String> names, List<String> subdirectories, String howToGet) {
        return new DataLocation(title, names, subdirectories, null, howToGet, true);
    }

    Path systemDir() {
        return systemDir;
    }

    /**
     * The directory to read: the first of {@code dataDir} and {@code envDir} that is set (failing when its files are
     * missing), else {@code systemDir} when complete, else null.
     */
    Path locate(String dataDir, String envDir, Path systemDir) {
        if (dataDir != null && !dataDir.isBlank()) {
            return search(Path.of(dataDir), "data_dir " + dataDir);
        }
        if (envDir != null && !envDir.isBlank()) {
            return search(Path.of(envDir), ENV + "=" + envDir);
        }
        return systemDir != null && missing(systemDir).isEmpty() ? systemDir : null;
    }

    /** The directory to read, as {@link #locate}, failing instead of returning null. */
    Path require(String dataDir, String envDir, Path systemDir) {
        Path dir = locate(dataDir, envDir, systemDir);
        if (dir == null) {
            String looked = systemDir == null ? "" : "; looked in " + systemDir.toAbsolutePath();
            throw missingError(title + " " + noun() + " " + String.join(", ", files) + " not found: data_dir is empty and "
                    + ENV + " is not set" + looked + "; " + howToGet, Path.of(files.get(0)));
        }
        return dir;
    }

    /** The file {@code name} in {@code dir}: its {@code .gz} name when present or when neither is, else without. */
    static Path file(Path dir, String name) {
        Path named = dir.resolve(name);
        if (!name.endsWith(".gz") || Files.isRegularFile(named)) {
            return named;
        }
        Path plain = dir.resolve(name.substring(0, name.length() - 3));
        return Files.isRegularFile(plain) ? plain : named;
    }

    private Path search(Path root, String what) {
        List<Path> candidates = new ArrayList<>();
        candidates.add(root);
        subdirectories.forEach(sub -> candidates.add(root.resolve(sub)));
        for (Path dir : candidates) {
            if (Files.isDirectory(dir) && missing(dir).isEmpty()) {
                return dir;
            }
        }
        List<String> missingInRoot = missing(root);
        StringBuilder message = new StringBuilder(what).append(": ").append(title).append(' ').append(noun()).append(" missing in ")
                .append(root.toAbsolutePath()).append(": ").append(String.join(", ", missingInRoot))
                .append(Files.isDirectory(root) ? "" : " (no such directory)");
        if (files.stream().anyMatch(name -> name.endsWith(".gz"))) {
            message.append(" (also looked for them without .gz)");
        }
        for (int i = 1; i < candidates.size(); i++) {
            message.append(i == 1 ? "; also looked in " : ", ").append(candidates.get(i).toAbsolutePath())
                    .append(" (").append(absence(candidates.get(i))).append(')');
        }
        throw missingError(message.append("; ").append(howToGet).toString(), root.resolve(missingInRoot.get(0)));
    }

    private String absence(Path dir) {
        if (!Files.isDirectory(dir)) {
            return "no such directory";
        }
        List<String> missing = missing(dir);
        return missing.size() == files.size() ? "none of the " + noun() : "missing " + String.join(", ", missing);
    }

    private String noun() {
        return folders ? "folders" : "files";
    }

    private List<String> missing(Path dir) {
        List<String> missing = new ArrayList<>();
        for (String name : files) {
            if (folders ? !Files.isDirectory(dir.resolve(name)) : !Files.isRegularFile(file(dir, name))) {
                missing.add(name);
            }
        }
        return missing;
    }

    private static UncheckedIOException missingError(String message, Path first) {
        return new UncheckedIOException(message, new NoSuchFileException(first.toString()));
    }
}
