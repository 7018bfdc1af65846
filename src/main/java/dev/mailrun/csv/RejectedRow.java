package dev.mailrun.csv;

/**
 * One rejected row of an import: the physical line it starts on, the address as written, and why.
 * In a report's first rejects both are cut to 200 characters, with the size of the whole, and
 * control characters are escaped ({@link Shown}); the rejects file has them in full.
 */
public record RejectedRow<R extends RejectReason>(long line, String email, R reason, String detail) {}
