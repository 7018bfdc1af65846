package dev.mailrun.app.config;

import dev.mailrun.http.api.ApiSettings;
import dev.mailrun.http.console.ConsoleProxy;
import dev.mailrun.mail.Secret;
import java.util.Optional;

/**
 * The admin listener ({@code admin.*}): metrics, health probes and the status page, on a port of its
 * own so that none of it is reachable where the public unsubscribe endpoint is.
 *
 * @param port  empty: no admin listener
 * @param token when present, every admin request must carry {@code Authorization: Bearer <token>}; the API takes it as a token with the admin scope
 * @param api   the API's limits ({@code api.*})
 * @param console the reverse proxy in front of the console ({@code console.*}), if any
 */
public record AdminConfig(Optional<Integer> port, String bind, Optional<Secret> token, ApiSettings api, ConsoleProxy console) {

    /** With the API's default limits. */
    public AdminConfig(Optional<Integer> port, String bind, Optional<Secret> token) {
        this(port, bind, token, ApiSettings.DEFAULTS);
    }

    /** With no proxy in front of the console. */
    public AdminConfig(Optional<Integer> port, String bind, Optional<Secret> token, ApiSettings api) {
        this(port, bind, token, api, ConsoleProxy.NONE);
    }

    static final int MIN_TOKEN_LENGTH = 16;

    public AdminConfig {
        token.ifPresent(t -> {
            String v = t.reveal();
            if (v.length() < MIN_TOKEN_LENGTH) {
                throw ConfigException.invalid("admin.token", "must be at least " + MIN_TOKEN_LENGTH
                        + " characters (secret value not shown)");
            }
            // It travels in an HTTP header: visible ASCII only, so it can be typed into any client as is.
            if (!v.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw ConfigException.invalid("admin.token", "must consist of visible ASCII characters only,"
                        + " no spaces (secret value not shown)");
            }
        });
    }

    static AdminConfig none() {
        return new AdminConfig(Optional.empty(), "127.0.0.1", Optional.empty());
    }
}
