package dev.mailrun.mail.dkim;

/** The configured DKIM key cannot be used; the message says which file and why, in one line. */
public final class DkimKeyException extends RuntimeException {

    DkimKeyException(String message) {
        super(message);
    }

    DkimKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
