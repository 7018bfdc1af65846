package dev.mailrun.campaign.unsubscribe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UnsubscribeSettingsTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef-test";

    @Test
    void valid_settings_give_tokens_and_return_paths_under_one_key_and_hide_the_secret() {
        UnsubscribeSettings settings = new UnsubscribeSettings(SECRET, "https://mail.example.com/");

        String token = settings.tokens().token(1, 2, "a@example.com");
        assertThat(new UnsubscribeTokens(SigningKey.of(SECRET)).verify(token)).isPresent();
        assertThat(settings.returnPaths().verify(settings.returnPaths().token(1, 2))).isPresent();
        assertThat(settings.toString()).doesNotContain(SECRET);
        assertThat(settings.tokens().url(settings.baseUrl(), 1, 2, "a@example.com").toString())
                .startsWith("https://mail.example.com/u/");
    }

    @Test
    void a_base_url_that_cannot_carry_a_token_fails_fast() {
        assertThatThrownBy(() -> new UnsubscribeSettings(SECRET, " ")).hasMessageStartingWith("unsubscribe.base-url is not set");
        assertThatThrownBy(() -> new UnsubscribeSettings(SECRET, "mail.example.com"))
                .hasMessageStartingWith("unsubscribe.base-url must be an absolute http(s) URL");
        assertThatThrownBy(() -> new UnsubscribeSettings(SECRET, "https://mail.example.com/?x=1"))
                .hasMessageStartingWith("unsubscribe.base-url must not have a query");
        assertThatThrownBy(() -> new UnsubscribeSettings("short", "https://mail.example.com"))
                .hasMessageStartingWith("unsubscribe.secret is too short");
    }
}
