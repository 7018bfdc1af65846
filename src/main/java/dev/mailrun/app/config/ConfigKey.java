package dev.mailrun.app.config;

import java.util.Optional;

/**
 * One configuration key: its default (empty string for "unset"), whether it is a secret, and for a
 * numeric or duration key the values it accepts. Secrets are never echoed back, not even in an error
 * about their own value.
 */
public record ConfigKey(String name, String defaultValue, boolean secret, String description, Optional<Range> range) {

    String envName() {
        return "MAILRUN_" + name.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
