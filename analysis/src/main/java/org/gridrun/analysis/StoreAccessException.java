package org.gridrun.analysis;

/**
 * A results store that this process may not or cannot open: a wrong or missing secret, a secret file it cannot
 * read, or a store held by a process it cannot reach.
 *
 * <p>Unlike a {@link StoreException}, nothing failed: the message says what to change (which secret, which host) and
 * carries no H2 details; the cause, when there is one, has them.
 */
public final class StoreAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Access refused, for the reason {@code message} gives. */
    public StoreAccessException(String message) {
        super(message);
    }

    /** Access refused, for the reason {@code message} gives, found through {@code cause}. */
    public StoreAccessException(String message, Throwable cause) {
        super(message, cause);
    }
}
