package dev.mailrun.campaign.unsubscribe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnsubscribeTokensTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef-test";
    private final UnsubscribeTokens tokens = new UnsubscribeTokens(SigningKey.of(SECRET));

    @Test
    void a_token_verifies_to_the_campaign_recipient_and_address_it_was_made_for() {
        String token = tokens.token(12, 3456789, "Ann.Lee@example.com");

        assertThat(tokens.verify(token)).contains(new UnsubscribeTarget(12, 3456789, "Ann.Lee@example.com"));
    }

    @Test
    void a_token_is_url_safe_and_compact() {
        String token = tokens.token(12, 3456789, "ann@example.com");

        assertThat(token).matches("[A-Za-z0-9_-]+").hasSizeLessThan(60);
    }

    @Test
    void changing_any_single_character_of_a_token_makes_it_invalid() {
        String token = tokens.token(7, 42, "bob@example.org");
        for (int i = 0; i < token.length(); i++) {
            char replacement = token.charAt(i) == 'A' ? 'B' : 'A';
            String tampered = token.substring(0, i) + replacement + token.substring(i + 1);
            assertThat(tokens.verify(tampered)).as("tampered at %d", i).isEmpty();
        }
    }

    @Test
    void a_token_whose_payload_was_changed_to_another_address_is_rejected() {
        byte[] raw = Base64.getUrlDecoder().decode(tokens.token(7, 42, "bob@example.org"));
        raw[5] ^= 0x01;

        assertThat(tokens.verify(Base64.getUrlEncoder().withoutPadding().encodeToString(raw))).isEmpty();
    }

    @Test
    void a_token_signed_with_another_secret_is_rejected() {
        UnsubscribeTokens other = new UnsubscribeTokens(SigningKey.of("another-secret-another-secret-another"));

        assertThat(tokens.verify(other.token(7, 42, "bob@example.org"))).isEmpty();
    }

    @Test
    void garbage_empty_and_oversized_tokens_are_rejected_without_exceptions() {
        assertThat(tokens.verify("")).isEmpty();
        assertThat(tokens.verify(null)).isEmpty();
        assertThat(tokens.verify("not base64 at all!")).isEmpty();
        assertThat(tokens.verify("AAAA")).isEmpty();
        assertThat(tokens.verify("A".repeat(5000))).isEmpty();
    }

    @Test
    void a_return_path_token_is_not_accepted_as_an_unsubscribe_token() {
        ReturnPaths returnPaths = new ReturnPaths(SigningKey.of(SECRET));

        assertThat(tokens.verify(returnPaths.token(7, 42))).isEmpty();
    }

    @Test
    void the_url_is_the_base_followed_by_the_path_and_the_token() {
        URI url = tokens.url(URI.create("https://mail.example.com/"), 1, 2, "c@example.com");

        assertThat(url.toString()).startsWith("https://mail.example.com/u/");
        assertThat(tokens.verify(url.getPath().substring(3))).contains(new UnsubscribeTarget(1, 2, "c@example.com"));
    }

    @Test
    void the_link_base_drops_the_endpoints_own_u_and_trailing_slashes_but_keeps_a_proxy_path() {
        for (String form : List.of("https://mail.example.com", "https://mail.example.com/", "https://mail.example.com/u",
                "https://mail.example.com/u/", "https://mail.example.com//u//")) {
            assertThat(UnsubscribeTokens.linkBase(URI.create(form))).as(form).hasToString("https://mail.example.com");
        }
        assertThat(UnsubscribeTokens.linkBase(URI.create("https://example.com/mail/"))).hasToString("https://example.com/mail");
        assertThat(UnsubscribeTokens.linkBase(URI.create("https://example.com/mail/u"))).hasToString("https://example.com/mail");
        assertThat(UnsubscribeTokens.linkBase(URI.create("https://example.com/menu"))).hasToString("https://example.com/menu");
        assertThat(UnsubscribeTokens.linkBase(URI.create("https://u"))).hasToString("https://u");
        assertThat(UnsubscribeTokens.linkBase(URI.create("http://127.0.0.1:8080/u/"))).hasToString("http://127.0.0.1:8080");
    }

    @Test
    void a_short_secret_fails_fast_without_printing_the_secret() {
        assertThatThrownBy(() -> SigningKey.of("short-secret-value"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unsubscribe.secret is too short")
                .hasMessageNotContaining("short-secret-value");
        assertThatThrownBy(() -> SigningKey.of(" ")).hasMessageContaining("unsubscribe.secret is not set");
        assertThat(SigningKey.of(SECRET).toString()).doesNotContain(SECRET);
    }
}
