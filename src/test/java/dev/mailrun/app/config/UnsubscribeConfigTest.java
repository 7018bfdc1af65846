package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UnsubscribeConfigTest {

    private static UnsubscribeConfig load(Map<String, String> env) {
        return ConfigLoader.load(Optional.empty(), env).unsubscribe();
    }

    @Test
    void the_base_url_is_normalised_once_when_the_configuration_is_loaded() {
        assertThat(load(Map.of("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://mail.example.com/u/")).baseUrl())
                .contains("https://mail.example.com");
        assertThat(load(Map.of("MAILRUN_UNSUBSCRIBE_BASE_URL", " https://example.com/mail/ ")).baseUrl())
                .contains("https://example.com/mail");
    }

    @Test
    void a_base_url_with_a_query_a_fragment_or_no_host_is_refused_naming_the_key() {
        for (String bad : new String[] {"https://mail.example.com/u?x=1", "https://mail.example.com/#top", "https:mail"}) {
            assertThatThrownBy(() -> load(Map.of("MAILRUN_UNSUBSCRIBE_BASE_URL", bad))).as(bad)
                    .isInstanceOf(ConfigException.class).hasMessageContaining("unsubscribe.base-url");
        }
    }

    @Test
    void an_explicit_mailto_must_be_an_address_that_needs_no_escaping_in_a_mailto_uri() {
        Map<String, String> mailbox = Map.of("MAILRUN_BOUNCE_IMAP_HOST", "imap.example.com", "MAILRUN_BOUNCE_IMAP_USER", "bounces");
        for (String bad : new String[] {"unsubscribe", "a?subject=x@example.com", "a%40b@example.com", "<u@example.com>",
                "u@example.com, v@example.com", "u@@example.com"}) {
            Map<String, String> env = new java.util.HashMap<>(mailbox);
            env.put("MAILRUN_UNSUBSCRIBE_MAILTO", bad);
            assertThatThrownBy(() -> load(env)).as(bad).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("configuration key unsubscribe.mailto: must be an address");
        }
        Map<String, String> env = new java.util.HashMap<>(mailbox);
        env.put("MAILRUN_UNSUBSCRIBE_MAILTO", "list-unsub+news@Bücher.example");
        assertThat(load(env).mailto()).contains("list-unsub+news@xn--bcher-kva.example");
    }
}
