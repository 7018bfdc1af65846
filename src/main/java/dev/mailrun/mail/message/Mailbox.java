package dev.mailrun.mail.message;

import java.util.Objects;

/**
 * An address with an optional display name, as given by the caller; validated when composed,
 * because a bad value from one recipient's data must reject that recipient, not crash the run.
 *
 * @param displayName empty for none
 */
public record Mailbox(String address, String displayName) {

    public Mailbox {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(displayName, "displayName");
    }

    public static Mailbox of(String address) {
        return new Mailbox(address, "");
    }
}
