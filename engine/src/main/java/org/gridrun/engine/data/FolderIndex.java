package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The image files of one split of a torchvision ImageFolder tree ({@code split/<class>/…/<file>}), in torchvision's
 * order, found by one walk of the directories without opening a file.
 *
 * <p>The classes are the split's sub-folders sorted by name (String order; torchvision sorts Python strings, which
 * differ only beyond the Basic Multilingual Plane); class {@code i} is the {@code i}-th. Within a class, every folder
 * beneath it is walked (following links); folders are ordered by path and files by name within a folder, as
 * torchvision's {@code sorted(os.walk(...))} orders them. A file is an image when its name ends in {@code .jpeg},
 * {@code .jpg} or {@code .png} in any case ({@link #ACCEPTED}); other files are counted in {@link #ignored()}. Only
 * entries without such an ending are asked whether they are folders, so indexing ImageNet's 1.28 million files costs
 * one directory listing each, not a file-system lookup each.
 *
 * <p>Names are held as UTF-8 bytes in one array, about 30 bytes per file; a path is rebuilt when asked for.
 */
final class FolderIndex {
    /** The file name endings indexed, compared ignoring case. */
    static final List<String> ACCEPTED = List.of(".jpeg", ".jpg", ".png");

    private final Path root;
    private final List<String> classes;
    private final int[] classStart;
    private final List<Path> folders;
    private final int[] folderOf;
    private final byte[] names;
    private final int[] nameStart;
    private final int ignored;

    private FolderIndex(Path root, List<String> classes, Builder b) {
        this.root = root;
        this.classes = List.copyOf(classes);
        this.classStart = Arrays.copyOf(b.classStart, classes.size() + 1);
        this.folders = List.copyOf(b.folders);
        this.folderOf = Arrays.copyOf(b.folderOf, b.files);
        this.names = Arrays.copyOf(b.names, b.bytes);
        this.nameStart = Arrays.copyOf(b.nameStart, b.files + 1);
        this.ignored = b.ignored;
    }

    /**
     * Indexes the split folder {@code root}; fails with a message naming the folder when it cannot be listed, has
     * no class folders, or has class folders without images.
     */
    static FolderIndex scan(Path root) {
        List<String> classes = new ArrayList<>();
        for (String name : list(root)) {
            if (Files.isDirectory(root.resolve(name))) {
                classes.add(name);
            }
        }
        if (classes.isEmpty()) {
            throw new UncheckedIOException(root + " has no class folders: an ImageFolder split holds one folder "
                    + "per class with the class's images in it (" + root + "/<class>/<image>.JPEG)",
                    new IOException("no class folders"));
        }
        classes.sort(null);
        Builder b = new Builder();
        List<String> empty = new ArrayList<>();
        for (int c = 0; c < classes.size(); c++) {
            b.ensureClasses(c + 2);
            b.classStart[c] = b.files;
            int before = b.files;
            walkClass(root.resolve(classes.get(c)), b);
            if (b.files == before) {
                empty.add(classes.get(c));
            }
        }
        b.classStart[classes.size()] = b.files;
        if (!empty.isEmpty()) {
            throw new UncheckedIOException(root + ": no images in the class folder" + (empty.size() == 1 ? " " : "s ")
                    + String.join(", ", empty.subList(0, Math.min(5, empty.size())))
                    + (empty.size() > 5 ? " and " + (empty.size() - 5) + " more" : "") + "; images are files "
                    + "ending in " + String.join(", ", ACCEPTED) + " (any case); add images or remove the folder",
                    new IOException("empty class folder"));
        }
        return new FolderIndex(root, classes, b);
    }

    /** The split folder. */
    Path root() {
        return root;
    }

    /** The class names (folder names) in class order. */
    List<String> classes() {
        return classes;
    }

    /** The number of images. */
    int size() {
        return nameStart.length - 1;
    }

    /** The class of image {@code image}. */
    int label(int image) {
        int at = Arrays.binarySearch(classStart, 0, classes.size(), image); // classes are never empty
        return at >= 0 ? at : -at - 2;
    }

    /** The file of image {@code image}. */
    Path path(int image) {
        String name = new String(names, nameStart[image], nameStart[image + 1] - nameStart[image],
                StandardCharsets.UTF_8);
        return folders.get(folderOf[image]).resolve(name);
    }

    /** How many files beneath the class folders were not indexed, having another ending. */
    int ignored() {
        return ignored;
    }

    /** Whether {@code name} ends in one of the {@link #ACCEPTED} endings, ignoring case. */
    static boolean accepted(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return ACCEPTED.stream().anyMatch(lower::endsWith);
    }

    /** Adds the images in {@code classDir} and the folders beneath it, folders in path order. */
    private static void walkClass(Path classDir, Builder b) {
        List<Path> pending = new ArrayList<>(List.of(classDir));
        List<Folder> walked = new ArrayList<>();
        for (int i = 0; i < pending.size(); i++) {
            Path dir = pending.get(i);
            List<String> images = new ArrayList<>();
            for (String name : list(dir)) {
                if (accepted(name)) {
                    images.add(name);
                } else if (Files.isDirectory(dir.resolve(name))) {
                    pending.add(dir.resolve(name));
                } else {
                    b.ignored++;
                }
            }
            walked.add(new Folder(dir, images));
        }
        walked.sort((x, y) -> x.path.toString().compareTo(y.path.toString()));
        for (Folder folder : walked) {
            b.folders.add(folder.path);
            for (String name : folder.images) {
                b.add(b.folders.size() - 1, name.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** The entry names of {@code dir}, sorted. */
    private static List<String> list(Path dir) {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                names.add(entry.getFileName().toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot list the folder (" + e + "); check that it exists and "
                    + "is readable", e);
        }
        names.sort(null);
        return names;
    }

    /** One folder of a class and its image names, sorted. */
    private record Folder(Path path, List<String> images) {
    }

    /** The growing arrays of a scan. */
    private static final class Builder {
        final List<Path> folders = new ArrayList<>();
        int[] classStart = new int[16];
        int[] folderOf = new int[1024];
        int[] nameStart = new int[1025];
        byte[] names = new byte[32 * 1024];
        int files;
        int bytes;
        int ignored;

        void ensureClasses(int count) {
            if (classStart.length < count) {
                classStart = Arrays.copyOf(classStart, 2 * count);
            }
        }

        void add(int folder, byte[] name) {
            if (files == folderOf.length) {
                folderOf = Arrays.copyOf(folderOf, 2 * files);
                nameStart = Arrays.copyOf(nameStart, 2 * files + 1);
            }
            if (bytes + name.length > names.length) {
                names = Arrays.copyOf(names, Math.max(2 * names.length, bytes + name.length));
            }
            System.arraycopy(name, 0, names, bytes, name.length);
            folderOf[files] = folder;
            nameStart[files] = bytes;
            bytes += name.length;
            files++;
            nameStart[files] = bytes;
        }
    }
}
