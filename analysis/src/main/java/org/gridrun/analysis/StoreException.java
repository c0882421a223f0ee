package org.gridrun.analysis;

/**
 * A failure of the results store: a database error, or a store this code cannot use.
 *
 * <p>The message names the store and what was being done; the cause, when there is one, is the
 * {@link java.sql.SQLException}.
 */
public final class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public StoreException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
