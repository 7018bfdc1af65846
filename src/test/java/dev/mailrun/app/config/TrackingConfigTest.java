package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrackingConfigTest {

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_HTTP_PORT", "8080");
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    private static MailrunConfig load(Map<String, String> env) {
        return ConfigLoader.load(Optional.empty(), env);
    }

    @Test
    void tracking_is_off_by_default_and_its_other_keys_are_not_read_then() {
        assertThat(load(env()).tracking().enabled()).isFalse();
        assertThat(load(env("MAILRUN_TRACKING_BASE_URL", "not a url")).tracking().enabled()).isFalse();
    }

    @Test
    void enabled_tracking_needs_an_explicit_https_base_and_the_public_listener() {
        assertThatThrownBy(() -> load(env("MAILRUN_TRACKING_ENABLED", "true")))
                .hasMessageStartingWith("configuration key tracking.base-url: must be set when tracking.enabled=true");
        assertThatThrownBy(() -> load(env("MAILRUN_TRACKING_ENABLED", "true", "MAILRUN_TRACKING_BASE_URL", "http://t.example")))
                .hasMessage("configuration key tracking.base-url: must be an https URL without query or fragment, got 'http://t.example'");
        Map<String, String> noListener = env("MAILRUN_TRACKING_ENABLED", "true", "MAILRUN_TRACKING_BASE_URL", "https://t.example");
        noListener.remove("MAILRUN_HTTP_PORT");
        assertThatThrownBy(() -> load(noListener)).hasMessageContaining("tracking.enabled").hasMessageContaining("http.port");
    }

    @Test
    void the_settings_are_read_with_their_defaults() {
        MailrunConfig c = load(env("MAILRUN_TRACKING_ENABLED", "true", "MAILRUN_TRACKING_BASE_URL", "https://t.example/",
                "MAILRUN_TRACKING_EXCLUDE_DOMAINS", "Partner.example, other.example"));
        var s = c.tracking().settings().orElseThrow();
        assertThat(s.baseUrl().toString()).isEqualTo("https://t.example");
        assertThat(s.retention()).isEqualTo(Duration.ofDays(180));
        assertThat(s.perRecipient()).isTrue();
        assertThat(s.scannerWindow()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.excludeDomains()).containsExactlyInAnyOrder("partner.example", "other.example");
        assertThat(c.tracking().machines()).isPresent();
        assertThat(c.tracking().trustedProxies().networks()).as("no proxy is trusted unless named").isEmpty();
    }

    @Test
    void trusted_proxies_are_networks_and_a_bad_one_stops_the_start_naming_the_key() {
        MailrunConfig c = load(env("MAILRUN_TRACKING_ENABLED", "true", "MAILRUN_TRACKING_BASE_URL", "https://t.example",
                "MAILRUN_TRACKING_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.7 ,2001:db8::/32"));
        assertThat(c.tracking().trustedProxies().networks()).extracting(Object::toString)
                .containsExactly("10.0.0.0/8", "192.168.1.7", "2001:db8::/32");
        assertThatThrownBy(() -> load(env("MAILRUN_TRACKING_ENABLED", "true", "MAILRUN_TRACKING_BASE_URL", "https://t.example",
                "MAILRUN_TRACKING_TRUSTED_PROXIES", "10.0.0.0/8, lb.internal")))
                .hasMessage("configuration key tracking.trusted-proxies: 'lb.internal' is not a network "
                        + "(CIDR such as 10.0.0.0/8 or 2001:db8::/32)");
    }

    @Test
    void a_machines_file_that_cannot_be_read_stops_the_start_naming_the_key() {
        assertThatThrownBy(() -> load(env("MAILRUN_TRACKING_ENABLED", "true", "MAILRUN_TRACKING_BASE_URL", "https://t.example",
                "MAILRUN_TRACKING_MACHINES_FILE", "/nonexistent/machines.txt")))
                .hasMessageStartingWith("configuration key tracking.machines-file: cannot be read");
    }
}
