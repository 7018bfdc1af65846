package dev.mailrun.app.config;

/** A configuration problem an operator can fix; the CLI prints the message alone and exits 2. */
public final class ConfigException extends RuntimeException {

    ConfigException(String message) {
        super(message);
    }

    static ConfigException invalid(String key, String problem) {
        return new ConfigException("configuration key " + key + ": " + problem);
    }
}
