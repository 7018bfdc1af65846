package dev.mailrun.app.config;

import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.http.server.TrustedProxies;
import dev.mailrun.http.console.ConsoleProxy;
import java.util.Optional;

/**
 * {@code console.*}: the reverse proxy in front of the console. An authenticating proxy
 * (console.auth-header) needs the addresses it comes from (console.trusted-proxies) and the API token
 * whose scopes its users get (console.proxy-token); either missing stops the start naming the key.
 * Trusted proxies alone serve a proxy that only ends TLS (X-Forwarded-Proto).
 */
final class ConsoleConfig {

    private ConsoleConfig() {}

    static ConsoleProxy from(RawConfig raw) {
        TrustedProxies proxies;
        try {
            proxies = raw.optional("console.trusted-proxies").map(TrustedProxies::parse).orElse(TrustedProxies.NONE);
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("console.trusted-proxies", e.getMessage());
        }
        Optional<String> header = raw.optional("console.auth-header");
        Optional<String> token = raw.optional("console.proxy-token");
        if (header.isEmpty()) {
            if (token.isPresent()) {
                throw ConfigException.invalid("console.proxy-token", "is only read with console.auth-header; set both or neither");
            }
            return new ConsoleProxy(Optional.empty(), proxies, Optional.empty());
        }
        if (!ConsoleProxy.HEADER_NAME.matcher(header.get()).matches()) {
            throw ConfigException.invalid("console.auth-header", "must be a header name (letters, digits and -, at most 64), got '"
                    + header.get() + "'");
        }
        if (proxies.isEmpty()) {
            throw ConfigException.invalid("console.trusted-proxies", "must name the proxies (CIDR) when console.auth-header is set:"
                    + " the header is believed only from them");
        }
        String name = token.orElseThrow(() -> ConfigException.invalid("console.proxy-token",
                "must name an API token when console.auth-header is set: its scopes are what proxied users may do"));
        if (!ApiTokens.NAME.matcher(name).matches()) {
            throw ConfigException.invalid("console.proxy-token", "must be an API token's name (as api-token list shows it), got '"
                    + name + "'");
        }
        return new ConsoleProxy(header, proxies, token);
    }
}
