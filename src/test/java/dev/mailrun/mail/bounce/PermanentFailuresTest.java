package dev.mailrun.mail.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PermanentFailuresTest {

    @ParameterizedTest(name = "{0} \"{1}\" -> {2}")
    @CsvSource(delimiter = '|', value = {
            // The address: suppress.
            "5.1.1 | user unknown                                             | HARD",
            "5.1.10| recipient domain has a null MX                           | HARD",
            "5.2.1 | mailbox disabled, not accepting messages                 | HARD",
            "5.4.4 | unable to route                                          | HARD",
            "5.4.1 | Recipient address rejected: Access denied                | HARD",
            "5.0.0 | 550 Requested action not taken: mailbox unavailable      | HARD",
            "''    | no such user here                                        | HARD",
            "5.0.0 | delivery failed                                          | HARD",
            "''    | ''                                                       | HARD",
            // A full mailbox may empty: counts towards the soft limit.
            "5.2.2 | mailbox full                                             | SOFT",
            "5.0.0 | 552 user is over quota                                   | SOFT",
            // The sender or the message was refused, not the address.
            "5.7.1 | client host blocked using zen.spamhaus.org               | REFUSED",
            "5.7.26| unauthenticated email from example.com is not accepted due to domain's DMARC policy | REFUSED",
            "5.7.1 | Recipient address rejected: Access denied                | REFUSED",
            "5.1.8 | sender address domain not found                          | REFUSED",
            "5.1.7 | bad sender mailbox syntax                                | REFUSED",
            "5.0.0 | 554 Message rejected as spam by content filter           | REFUSED",
            "''    | your IP is on our block list                             | REFUSED",
            "5.3.4 | message too big for system                               | REFUSED",
            "5.6.0 | content not acceptable                                   | REFUSED",
    })
    void permanent_failures_suppress_only_when_they_are_about_the_address(String status, String diagnostic, BounceKind kind) {
        assertThat(PermanentFailures.kind(status, diagnostic)).isEqualTo(kind);
    }
}
