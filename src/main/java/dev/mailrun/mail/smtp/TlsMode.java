package dev.mailrun.mail.smtp;

/** How the connection to the relay is protected. */
public enum TlsMode {
    /** Plain text; for a relay on the same host or network only. */
    NONE,
    /** STARTTLS when the relay offers it, plain text otherwise. */
    STARTTLS_OPTIONAL,
    /** STARTTLS or no connection: a relay that does not offer it is a fatal configuration error. */
    STARTTLS_REQUIRED,
    /** TLS from the first byte (usually port 465). */
    IMPLICIT
}
