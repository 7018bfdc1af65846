package dev.mailrun.campaign.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EmailAddressTest {

    @Test
    void trims_and_lower_cases_the_domain_but_keeps_the_local_part() {
        assertThat(EmailAddress.of("  John.Doe@Example.COM ").value()).isEqualTo("John.Doe@example.com");
        assertThat(EmailAddress.of("John.Doe@Example.COM").suppressionKey()).isEqualTo("john.doe@example.com");
    }

    @Test
    void internationalised_domains_are_stored_as_punycode() {
        assertThat(EmailAddress.of("anna@bücher.example").value()).isEqualTo("anna@xn--bcher-kva.example");
    }

    @Test
    void local_part_over_64_octets_is_too_long() {
        EmailAddress.Check c = EmailAddress.check("a".repeat(65) + "@example.com");
        assertThat(c).isInstanceOfSatisfying(EmailAddress.Invalid.class,
                i -> assertThat(i.kind()).isEqualTo(EmailAddress.Kind.TOO_LONG));
        assertThat(EmailAddress.check("a".repeat(64) + "@example.com")).isInstanceOf(EmailAddress.Valid.class);
    }

    @Test
    void address_over_254_octets_is_too_long() {
        String domain = ("d".repeat(60) + ".").repeat(4) + "com"; // 247 octets
        assertThat(EmailAddress.check("abcdefg@" + domain)).isInstanceOfSatisfying(EmailAddress.Invalid.class,
                i -> assertThat(i.kind()).isEqualTo(EmailAddress.Kind.TOO_LONG));
        assertThat(EmailAddress.check("abcdef@" + domain)).isInstanceOf(EmailAddress.Valid.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "@example.com", "a@", "a@@example.com", "a..b@example.com", ".a@example.com",
            "a.@example.com", "a b@example.com", "a@example", "a@-example.com", "a@example..com", "a@1.2.3.4",
            "a\r\nBcc: x@example.com@example.com", "\"quoted\"@example.com", "jöhn@example.com", "a@exa_mple.com"})
    void malformed_addresses_are_rejected_with_a_syntax_reason(String raw) {
        assertThat(EmailAddress.check(raw)).isInstanceOfSatisfying(EmailAddress.Invalid.class,
                i -> assertThat(i.reason()).startsWith("invalid syntax"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a@example.com", "first.last+tag@sub.example.co.uk", "o'brien@example.ie", "x_y-z@a-b.example",
            "1234@example.com"})
    void ordinary_addresses_are_accepted(String raw) {
        assertThat(EmailAddress.check(raw)).isInstanceOf(EmailAddress.Valid.class);
    }
}
