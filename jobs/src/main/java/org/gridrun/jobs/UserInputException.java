package org.gridrun.jobs;

/**
 * Bad input from the user (a grid file, an option, a run directory): reported as one line and exit code 2.
 */
public final class UserInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserInputException(String message) {
        super(message);
    }

    public UserInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
