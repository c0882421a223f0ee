package org.gridrun.analysis;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The password of one results store: random, created with the store, kept in a file beside it that only its owner
 * can read, {@code runs/.gridrun-secret} for {@code runs/gridrun}.
 *
 * <p>Every gridrun command reads it from there; a job on another host reads it from the same file through the shared
 * file system, or from {@value #ENV} when the file is out of its reach. It is given to H2 as the password of the
 * store's user and never written anywhere else: not in URLs, logs, scripts or messages.
 *
 * @param value  the secret
 * @param source where it came from, for messages: the file, or the environment variable
 */
public record StoreSecret(String value, String source) {
    /** The environment variable that gives the secret instead of the file. */
    public static final String ENV = "GRIDRUN_DB_SECRET";
    private static final int BYTES = 32;

    @Override
    public String toString() {
        return "StoreSecret[from " + source + "]";
    }

    /** The secret file of the store whose base path is {@code base}: {@code <dir>/.<name>-secret}. */
    public static Path file(Path base) {
        return base.resolveSibling("." + base.getFileName() + "-secret");
    }

    /**
     * The secret of the store at {@code base}: {@value #ENV} when set, else its file; empty when neither is there.
     * A file that exists but cannot be read is a {@link StoreAccessException}.
     */
    static Optional<StoreSecret> find(Path base) {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            return Optional.of(new StoreSecret(env.strip(), "$" + ENV));
        }
        return base == null ? Optional.empty() : read(file(base));
    }

    /** Creates the secret file of a new store and returns its secret; another process's, when it came first. */
    static StoreSecret create(Path base) {
        Path file = file(base);
        byte[] bytes = new byte[BYTES];
        new SecureRandom().nextBytes(bytes);
        try {
            OwnerOnly.createFile(file, HexFormat.of().formatHex(bytes) + "\n");
        } catch (FileAlreadyExistsException raced) {
            // another gridrun created the store at the same moment: use its secret
        } catch (IOException e) {
            throw new StoreAccessException("cannot create the secret file " + file + " of results store " + base
                    + ": " + e.getMessage(), e);
        }
        return read(file).orElseThrow(() -> new StoreAccessException("the secret file " + file
                + " vanished as it was created"));
    }

    private static Optional<StoreSecret> read(Path file) {
        try {
            String text = Files.readString(file).strip();
            if (text.isEmpty()) {
                throw new StoreAccessException("the secret file " + file + " is empty; restore it from a backup, or "
                        + "set $" + ENV);
            }
            return Optional.of(new StoreSecret(text, file.toString()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (AccessDeniedException e) {
            throw new StoreAccessException("cannot read the secret file " + file + ": permission denied; only the "
                    + "owner of a results store can open it (ask them to share the results, or to serve the store "
                    + "with grid-run db serve)", e);
        } catch (IOException e) {
            throw new StoreAccessException("cannot read the secret file " + file + ": " + e.getMessage(), e);
        }
    }
}
