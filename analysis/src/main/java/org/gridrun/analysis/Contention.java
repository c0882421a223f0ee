package org.gridrun.analysis;

import java.sql.SQLException;

/**
 * Tells failures that another writer caused, and that a fresh try may not meet, from real ones.
 */
final class Contention {
    /** Unique key violated: another writer stored the same row first. */
    private static final String DUPLICATE_KEY = "23505";
    /** Serialization failure or deadlock. */
    private static final String DEADLOCK = "40001";
    /** H2's lock timeout. */
    private static final String LOCK_TIMEOUT = "HYT00";

    private Contention() {
    }

    /** Whether {@code failure}, or an exception it wraps, is a concurrent writer's doing. */
    static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && transientState(sql)) {
                return true;
            }
        }
        return false;
    }

    private static boolean transientState(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            String state = s.getSQLState();
            if (DUPLICATE_KEY.equals(state) || DEADLOCK.equals(state) || LOCK_TIMEOUT.equals(state)) {
                return true;
            }
        }
        return false;
    }
}
