package dev.mailrun.campaign.unsubscribe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.EmailAddress;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ReturnPathsTest {

    private final ReturnPaths returnPaths = new ReturnPaths(SigningKey.of("0123456789abcdef0123456789abcdef-test"));

    @Test
    void a_return_path_token_maps_back_to_its_campaign_and_recipient() {
        assertThat(returnPaths.verify(returnPaths.token(12, 345))).contains(new ReturnPathTarget(12, 345));
    }

    @Test
    void the_return_path_is_a_valid_address_whose_local_part_fits_64_octets_even_for_the_largest_ids() {
        String address = returnPaths.address("mail.example.com", Long.MAX_VALUE, Long.MAX_VALUE);

        assertThat(EmailAddress.check(address)).isInstanceOf(EmailAddress.Valid.class);
        assertThat(address.substring(0, address.indexOf('@')).length()).isLessThanOrEqualTo(64);
        assertThat(address).startsWith("bounces+").endsWith("@mail.example.com");
    }

    @Test
    void a_relay_that_upper_cases_the_local_part_does_not_break_the_token() {
        String token = returnPaths.token(3, 99);

        assertThat(returnPaths.verify(token.toUpperCase(Locale.ROOT))).contains(new ReturnPathTarget(3, 99));
    }

    @Test
    void forged_or_altered_return_path_tokens_are_rejected() {
        String token = returnPaths.token(3, 99);
        for (int i = 0; i < token.length(); i++) {
            char replacement = token.charAt(i) == 'a' ? 'b' : 'a';
            assertThat(returnPaths.verify(token.substring(0, i) + replacement + token.substring(i + 1)))
                    .as("altered at %d", i).isEmpty();
        }
        assertThat(returnPaths.verify("aaaaaaaaaaaaaaaaaaaaaaaa")).isEmpty();
        assertThat(returnPaths.verify("not-base32!")).isEmpty();
        assertThat(returnPaths.verify(null)).isEmpty();
    }

    @Test
    void an_unsubscribe_token_is_not_accepted_as_a_return_path_token() {
        UnsubscribeTokens tokens = new UnsubscribeTokens(SigningKey.of("0123456789abcdef0123456789abcdef-test"));

        assertThat(returnPaths.verify(tokens.token(3, 99, "x@example.com").toLowerCase(Locale.ROOT))).isEmpty();
    }
}
