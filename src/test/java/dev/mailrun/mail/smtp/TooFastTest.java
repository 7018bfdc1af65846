package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TooFastTest {

    @Test
    void relay_throttling_texts_slow_the_relay_down() {
        assertThat(TooFast.of(450, "4.7.1 Error: too much mail from 192.0.2.7")).contains(TooFast.Scope.RELAY);
        assertThat(TooFast.of(421, "4.7.0 Error: too many connections from 192.0.2.7")).contains(TooFast.Scope.RELAY);
        assertThat(TooFast.of(454, "Throttling failure: Maximum sending rate exceeded.")).contains(TooFast.Scope.RELAY);
    }

    @Test
    void a_providers_deferral_slows_the_recipients_domain_down() {
        assertThat(TooFast.of(421, "4.7.0 Try again later, closing connection.")).contains(TooFast.Scope.DOMAIN);
        assertThat(TooFast.of(421, "4.7.28 Our system has detected an unusual rate of unsolicited mail")).contains(TooFast.Scope.DOMAIN);
        assertThat(TooFast.of(451, "Temporarily deferred due to unexpected volume or user complaints")).contains(TooFast.Scope.DOMAIN);
        assertThat(TooFast.ofDelay("4.7.0", "SMTP; 421 4.7.0 rate limited")).contains(TooFast.Scope.DOMAIN);
    }

    @Test
    void replies_that_mean_something_is_broken_are_never_too_fast() {
        assertThat(TooFast.of(454, "4.7.1 <a@b.example>: Relay access denied")).isEmpty();
        assertThat(TooFast.of(450, "4.7.1 Client host rejected: cannot find your hostname, [192.0.2.7] blocked")).isEmpty();
        assertThat(TooFast.of(451, "4.7.1 Greylisted, please try again in 300 seconds")).isEmpty();
        assertThat(TooFast.of(421, "4.3.2 Service shutting down")).isEmpty();
        assertThat(TooFast.of(452, "4.2.2 Mailbox full")).isEmpty();
        assertThat(TooFast.of(550, "5.7.1 too much mail from you")).isEmpty();
        assertThat(TooFast.ofDelay("4.2.2", "SMTP; 452 4.2.2 Mailbox full")).isEmpty();
    }

    @Test
    void a_session_dropped_for_its_errors_is_not_too_fast() {
        assertThat(TooFast.of(421, "4.7.0 relay.example Error: too many errors")).isEmpty();
    }
}
