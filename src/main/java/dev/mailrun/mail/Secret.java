package dev.mailrun.mail;

import java.util.Objects;

/** A password or key that must never reach a log: its {@code toString} is {@code ***}. */
public final class Secret {

    private final String value;

    private Secret(String value) {
        this.value = Objects.requireNonNull(value, "secret value");
    }

    public static Secret of(String value) {
        return new Secret(value);
    }

    /** The clear text; call only where the value is handed to the one thing that needs it. */
    public String reveal() {
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret secret && secret.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "***";
    }
}
