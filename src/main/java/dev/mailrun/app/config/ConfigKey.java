package dev.mailrun.app.config;

/**
 * One configuration key: its default (empty string for "unset") and whether it is a secret.
 * Secrets are never echoed back, not even in an error about their own value.
 */
public record ConfigKey(String name, String defaultValue, boolean secret, String description) {

    public String envName() {
        return "MAILRUN_" + name.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
