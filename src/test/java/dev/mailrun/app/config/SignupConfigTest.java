package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SignupConfigTest {

    private static final Map<String, String> ENABLED = Map.of("MAILRUN_SIGNUP_ENABLED", "true",
            "MAILRUN_UNSUBSCRIBE_SECRET", "0123456789abcdef0123456789abcdef", "MAILRUN_UNSUBSCRIBE_BASE_URL", "https://mail.example.com",
            "MAILRUN_SIGNUP_FROM", "Example News <news@example.com>");

    @Test
    void sign_ups_are_off_by_default_and_store_no_client_address() {
        SignupConfig c = ConfigLoader.load(Optional.empty(), Map.of()).signup();

        assertThat(c.enabled()).isFalse();
        assertThat(c.storeIp()).isFalse();
        assertThat(c.language()).isEqualTo("en");
        assertThat(c.look().logo()).isEmpty();
    }

    @Test
    void the_sender_and_the_look_are_read_and_checked() {
        Map<String, String> env = new HashMap<>(ENABLED);
        env.put("MAILRUN_PAGES_LOGO_URL", "https://cdn.example.com/logo.png");
        env.put("MAILRUN_PAGES_ACCENT_COLOUR", "#AA0000");
        SignupConfig c = ConfigLoader.load(Optional.empty(), env).signup();

        assertThat(c.from().orElseThrow().address()).isEqualTo("news@example.com");
        assertThat(c.from().orElseThrow().displayName()).isEqualTo("Example News");
        assertThat(c.look().logo()).contains(URI.create("https://cdn.example.com/logo.png"));
        assertThat(c.look().logoOrigin()).contains("https://cdn.example.com");
        assertThat(c.look().accent()).isEqualTo("#aa0000");
    }

    @Test
    void a_logo_that_is_not_https_a_bad_colour_or_a_missing_sender_stops_the_start_naming_the_key() {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_PAGES_LOGO_URL", "http://cdn.example.com/l.png")))
                .hasMessageStartingWith("configuration key pages.logo-url:").hasMessageContaining("https");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_PAGES_ACCENT_COLOUR", "red")))
                .hasMessageStartingWith("configuration key pages.accent-colour:").hasMessageContaining("#rrggbb");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_PAGES_FOOTER", "a\u0007b")))
                .hasMessageStartingWith("configuration key pages.footer:");
        Map<String, String> noSender = new HashMap<>(ENABLED);
        noSender.remove("MAILRUN_SIGNUP_FROM");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), noSender))
                .hasMessageStartingWith("configuration key signup.from:");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_SIGNUP_ENABLED", "true",
                "MAILRUN_SIGNUP_FROM", "news@example.com")))
                .hasMessageStartingWith("configuration key signup.enabled:");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_SIGNUP_LANGUAGE", "fr")))
                .hasMessageStartingWith("configuration key signup.language:");
    }
}
