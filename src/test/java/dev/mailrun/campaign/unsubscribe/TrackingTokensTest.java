package dev.mailrun.campaign.unsubscribe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

class TrackingTokensTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef-test";
    private final SigningKey key = SigningKey.of(SECRET);
    private final TrackingTokens tokens = new TrackingTokens(key);

    @Test
    void a_click_token_names_its_campaign_recipient_and_link_and_is_lower_case_base32() {
        String token = tokens.clickToken(12, 3456789, 7);

        assertThat(token).matches("[a-z2-7]+").hasSizeLessThan(50);
        assertThat(tokens.verify(token)).contains(new TrackingTokens.Target(12, 3456789, true, 7));
    }

    @Test
    void an_open_token_names_no_link() {
        assertThat(tokens.verify(tokens.openToken(3, 4))).contains(new TrackingTokens.Target(3, 4, false, -1));
    }

    @Test
    void a_token_with_another_link_index_signed_by_someone_else_or_altered_anywhere_is_refused() {
        String token = tokens.clickToken(5, 6, 1);
        for (int i = 0; i < token.length(); i++) {
            char replacement = token.charAt(i) == 'a' ? 'b' : 'a';
            String altered = token.substring(0, i) + replacement + token.substring(i + 1);
            assertThat(tokens.verify(altered)).as("altered at %d", i).isEmpty();
        }
        // The same payload with link 2 but the signature of link 1: the index is under the signature.
        String other = tokens.clickToken(5, 6, 2);
        int signatureChars = 26;
        assertThat(tokens.verify(other.substring(0, other.length() - signatureChars)
                + token.substring(token.length() - signatureChars))).isEmpty();
        TrackingTokens forger = new TrackingTokens(SigningKey.of("another-secret-another-secret-another"));
        assertThat(tokens.verify(forger.clickToken(5, 6, 1))).isEmpty();
    }

    @Test
    void malformed_tokens_are_refused() {
        assertThat(tokens.verify("")).isEmpty();
        assertThat(tokens.verify(null)).isEmpty();
        assertThat(tokens.verify("not-base32!")).isEmpty();
        assertThat(tokens.verify("a".repeat(81))).isEmpty();
        assertThat(tokens.verify(tokens.clickToken(1, 2, 3).substring(4))).isEmpty();
        assertThat(tokens.verify(tokens.clickToken(1, 2, 3).toUpperCase())).as("base32 ignores case, as the return paths do").isPresent();
    }

    @Test
    void an_unsubscribe_token_is_never_a_tracking_token() {
        // Same key, same ids: the purpose in the signature keeps the two apart.
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        rest.write('o');
        String lookalike = new SignedIdTokens(key, UnsubscribeTokens.PURPOSE, 16, SignedIdTokens.Text.BASE32)
                .token(3, 4, rest.toByteArray());
        assertThat(tokens.verify(lookalike)).isEmpty();
    }
}
