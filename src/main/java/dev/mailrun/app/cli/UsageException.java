package dev.mailrun.app.cli;

/** A bad argument found after parsing (an unknown campaign id, a malformed file): exit code 2. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
