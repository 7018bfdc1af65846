package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.http.console.ConsoleProxy;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** console.*: an authenticating proxy needs its addresses and its token, or the start stops with one line naming the key. */
class ConsoleConfigTest {

    private static ConsoleProxy load(String... pairs) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return ConfigLoader.load(Optional.empty(), env).admin().console();
    }

    @Test
    void no_proxy_is_believed_by_default() {
        ConsoleProxy none = load();
        assertThat(none.authHeader()).isEmpty();
        assertThat(none.proxies().networks()).isEmpty();
        assertThat(none.proxyToken()).isEmpty();
    }

    @Test
    void an_authenticating_proxy_is_read_with_its_networks_and_token() {
        ConsoleProxy p = load("MAILRUN_CONSOLE_AUTH_HEADER", "X-Forwarded-User", "MAILRUN_CONSOLE_TRUSTED_PROXIES",
                "10.0.0.0/8, 192.168.1.7", "MAILRUN_CONSOLE_PROXY_TOKEN", "console-sso");
        assertThat(p.authHeader()).hasValue("X-Forwarded-User");
        assertThat(p.proxies().networks()).extracting(Object::toString).containsExactly("10.0.0.0/8", "192.168.1.7");
        assertThat(p.proxyToken()).hasValue("console-sso");
        assertThat(load("MAILRUN_CONSOLE_TRUSTED_PROXIES", "10.0.0.0/8").authHeader())
                .as("trusted proxies alone: a proxy that only ends TLS").isEmpty();
    }

    @Test
    void missing_or_invalid_keys_stop_the_start_with_one_line_naming_the_key() {
        assertThatThrownBy(() -> load("MAILRUN_CONSOLE_AUTH_HEADER", "X-Forwarded-User", "MAILRUN_CONSOLE_PROXY_TOKEN", "sso"))
                .hasMessage("configuration key console.trusted-proxies: must name the proxies (CIDR) when console.auth-header"
                        + " is set: the header is believed only from them");
        assertThatThrownBy(() -> load("MAILRUN_CONSOLE_AUTH_HEADER", "X-Forwarded-User", "MAILRUN_CONSOLE_TRUSTED_PROXIES", "10.0.0.0/8"))
                .hasMessageStartingWith("configuration key console.proxy-token: must name an API token when console.auth-header is set");
        assertThatThrownBy(() -> load("MAILRUN_CONSOLE_AUTH_HEADER", "X-User: admin", "MAILRUN_CONSOLE_TRUSTED_PROXIES", "10.0.0.0/8",
                "MAILRUN_CONSOLE_PROXY_TOKEN", "sso"))
                .hasMessage("configuration key console.auth-header: must be a header name (letters, digits and -, at most 64),"
                        + " got 'X-User: admin'");
        assertThatThrownBy(() -> load("MAILRUN_CONSOLE_AUTH_HEADER", "X-Forwarded-User", "MAILRUN_CONSOLE_TRUSTED_PROXIES", "10.0.0.0/8",
                "MAILRUN_CONSOLE_PROXY_TOKEN", "SSO Token"))
                .hasMessage("configuration key console.proxy-token: must be an API token's name (as api-token list shows it),"
                        + " got 'SSO Token'");
        assertThatThrownBy(() -> load("MAILRUN_CONSOLE_TRUSTED_PROXIES", "10.0.0.0/8, lb.internal"))
                .hasMessage("configuration key console.trusted-proxies: 'lb.internal' is not a network "
                        + "(CIDR such as 10.0.0.0/8 or 2001:db8::/32)");
        assertThatThrownBy(() -> load("MAILRUN_CONSOLE_PROXY_TOKEN", "sso"))
                .hasMessage("configuration key console.proxy-token: is only read with console.auth-header; set both or neither");
    }
}
