package org.gridrun.analysis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import org.gridrun.engine.run.BadFileException;
import org.h2.api.ErrorCode;

/**
 * A store's data file that H2 cannot use: damaged on disk, cut short, or written by something else. It is reported
 * as a {@link BadFileException} naming the {@code .mv.db} file, with H2's reason on one line and what to do; the file
 * is left as it is.
 *
 * <p>Opening an existing file store fails this way for any reason but a wrong secret or a lock another process holds
 * (those are {@link StoreAccessException}s); a query on an open store only for H2's own verdict that the file is
 * corrupt or of an unknown version.
 */
final class StoreDamage {
    static final String ADVICE = "restore it from a copy, or move it aside (with its .lock.db) and run grid-run "
            + "report --grid GRID for each grid, which ingests the run directories into a new store";

    private StoreDamage() {
    }

    /** The failure to open the file store {@code store}, when its data file exists and is to blame. */
    static Optional<BadFileException> onOpen(StoreUrl store, SQLException e) {
        if (store.kind() != StoreUrl.Kind.FILE || store.base() == null) {
            return Optional.empty();
        }
        Path file = StoreLogin.dataFile(store.base());
        return Files.isRegularFile(file) ? Optional.of(damaged(file, e)) : Optional.empty();
    }

    /** The failure of a query on the store at {@code url}, when H2 says its data file is corrupt. */
    static Optional<BadFileException> onQuery(String url, SQLException e) {
        boolean corrupt = e.getErrorCode() == ErrorCode.FILE_CORRUPTED_1
                || e.getErrorCode() == ErrorCode.FILE_VERSION_ERROR_1;
        return corrupt ? onOpen(StoreUrl.parse(url), e) : Optional.empty();
    }

    private static BadFileException damaged(Path file, SQLException e) {
        return new BadFileException(file, null, "H2 cannot use this results store (" + reason(file, e) + ")", ADVICE,
                e);
    }

    /** H2's reason on one line, without its error codes, the file's name or Java's exception names. */
    private static String reason(Path file, SQLException e) {
        return switch (e.getErrorCode()) {
            case ErrorCode.IO_EXCEPTION_1 -> "reading it failed, as it does when a file is cut short";
            case ErrorCode.GENERAL_ERROR_1 -> "H2 failed inside while reading it";
            default -> BadFileException.oneLine(e.getMessage()).replaceAll("\\s*\\[\\d+-\\d+]", "")
                    .replace("\"" + file + "\"", "the file").replace("; SQL statement:", "")
                    .replaceAll("java\\.[\\w.$]+(Exception|Error):?\\s*", "");
        };
    }
}
