package dev.mailrun.campaign.unsubscribe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.testing.SettableClock;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WebVersionTokensTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef-test";
    private final SigningKey key = SigningKey.of(SECRET);
    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00.250Z");
    private final WebVersionTokens tokens = new WebVersionTokens(key, Duration.ofDays(180), clock);

    @Test
    void a_token_names_its_campaign_and_recipient_and_expires_a_ttl_after_it_was_made() {
        String token = tokens.token(12, 3456789);

        assertThat(token).matches("[A-Za-z0-9_-]+").hasSizeLessThan(50);
        assertThat(tokens.verify(token)).contains(new WebVersionTokens.Target(12, 3456789,
                Instant.parse("2026-11-26T10:00:00Z").plus(Duration.ofDays(180))));
        assertThat(tokens.url(URI.create("https://mail.example.com"), 1, 2))
                .startsWith("https://mail.example.com/w/").doesNotContain("=");
    }

    @Test
    void a_token_is_refused_from_the_second_it_expires() {
        String token = tokens.token(1, 2);

        clock.set(Instant.parse("2027-05-25T09:59:59Z"));
        assertThat(tokens.verify(token)).isPresent();
        clock.set(Instant.parse("2027-05-25T10:00:00Z"));
        assertThat(tokens.verify(token)).isEmpty();
    }

    @Test
    void a_token_altered_anywhere_or_signed_by_someone_else_is_refused() {
        String token = tokens.token(5, 6);
        for (int i = 0; i < token.length(); i++) {
            char replacement = token.charAt(i) == 'A' ? 'B' : 'A';
            String altered = token.substring(0, i) + replacement + token.substring(i + 1);
            assertThat(tokens.verify(altered)).as("altered at %d", i).isEmpty();
        }
        WebVersionTokens forger = new WebVersionTokens(SigningKey.of("another-secret-another-secret-another"),
                Duration.ofDays(180), clock);
        assertThat(tokens.verify(forger.token(5, 6))).isEmpty();
    }

    @Test
    void malformed_tokens_are_refused() {
        assertThat(tokens.verify("")).isEmpty();
        assertThat(tokens.verify(null)).isEmpty();
        assertThat(tokens.verify("not base64!")).isEmpty();
        assertThat(tokens.verify("A".repeat(101))).isEmpty();
        assertThat(tokens.verify(tokens.token(1, 2).substring(3))).isEmpty();
        assertThat(tokens.verify(tokens.token(1, 2) + "=")).as("only the spelling we issue").isEmpty();
    }

    @Test
    void unsubscribe_and_tracking_tokens_are_never_web_version_tokens() {
        // Same key, same ids, a rest that reads as an expiry far ahead: the purpose keeps them apart.
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        Varints.write(rest, Instant.parse("2030-01-01T00:00:00Z").getEpochSecond());
        String lookalike = new SignedIdTokens(key, UnsubscribeTokens.PURPOSE, 16, SignedIdTokens.Text.BASE64URL)
                .token(3, 4, rest.toByteArray());
        assertThat(tokens.verify(lookalike)).isEmpty();
        assertThat(tokens.verify(new UnsubscribeTokens(key).token(3, 4, "a@b.example"))).isEmpty();
    }

    @Test
    void a_ttl_that_is_not_positive_is_refused() {
        assertThatThrownBy(() -> new WebVersionTokens(key, Duration.ZERO, clock))
                .hasMessage("webversion.ttl must be positive, got PT0S");
    }
}
