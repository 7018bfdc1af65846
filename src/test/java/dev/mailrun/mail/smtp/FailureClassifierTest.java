package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.InternetAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.junit.jupiter.api.Test;

class FailureClassifierTest {

    private static MessagingException rcpt(int code, String text) throws Exception {
        SendFailedException top = new SendFailedException("Invalid Addresses");
        top.setNextException(new SMTPAddressFailedException(new InternetAddress("a@example.org"), "RCPT TO:<a@example.org>", code, code + " " + text));
        return top;
    }

    @Test
    void the_reply_code_is_found_through_next_exceptions() throws Exception {
        Failure failure = FailureClassifier.classify(rcpt(550, "5.1.1 user unknown"));

        assertThat(failure.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(failure.code()).isEqualTo(550);
        assertThat(failure.hardBounce()).isTrue();
        assertThat(failure.text()).isEqualTo("5.1.1 user unknown");
    }

    @Test
    void only_bad_mailbox_replies_are_hard_bounces() throws Exception {
        assertThat(FailureClassifier.classify(rcpt(550, "no such user here")).hardBounce()).isTrue();
        assertThat(FailureClassifier.classify(rcpt(552, "5.2.2 mailbox full")).hardBounce()).isFalse();
        assertThat(FailureClassifier.classify(rcpt(550, "5.7.1 policy rejection")).hardBounce()).isFalse();
        assertThat(FailureClassifier.classify(rcpt(550, "5.2.1 mailbox disabled")).hardBounce()).isTrue();
        assertThat(FailureClassifier.classify(rcpt(550, "5.4.4 unable to route")).hardBounce()).isTrue();
        assertThat(FailureClassifier.classify(rcpt(553, "5.1.8 sender address domain not found")).hardBounce()).isFalse();
        assertThat(FailureClassifier.classify(rcpt(550, "5.7.1 recipient address rejected: access denied")).hardBounce()).isFalse();
    }

    @Test
    void a_refusal_without_an_enhanced_code_is_judged_by_the_same_wording_as_a_bounce() throws Exception {
        // Wordings only the bounce mailbox knew before the two shared one list: a 550 saying so at
        // SMTP time suppressed nobody, the same words in a bounce did.
        for (String words : new String[] {"account has been disabled", "The email account that you tried to reach couldn't be found",
                "invalid mailbox", "no such person at this address", "Account closed"}) {
            assertThat(FailureClassifier.classify(rcpt(550, words)).hardBounce()).as(words).isTrue();
        }
        for (String words : new String[] {"message rejected as spam", "mailbox full", "relaying denied"}) {
            assertThat(FailureClassifier.classify(rcpt(550, words)).hardBounce()).as(words).isFalse();
        }
        // Without an enhanced code, only 550/551/553 may be about the address.
        assertThat(FailureClassifier.classify(rcpt(554, "account has been disabled")).hardBounce()).isFalse();
    }

    @Test
    void authentication_and_timeouts_are_classified_without_a_reply_code() {
        assertThat(FailureClassifier.classify(new AuthenticationFailedException("bad")).kind()).isEqualTo(Failure.Kind.FATAL);
        MessagingException timeout = new MessagingException("Exception reading response", new SocketTimeoutException("Read timed out"));
        assertThat(FailureClassifier.classify(timeout)).satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Failure.Kind.TRANSIENT);
            assertThat(f.connectionLost()).isTrue();
            assertThat(f.retryOnNewConnection()).isFalse();
        });
    }

    @Test
    void retry_hints_are_parsed_in_common_phrasings() {
        assertThat(FailureClassifier.retryHint("4.7.0 Try again in 5 minutes")).contains(Duration.ofMinutes(5));
        assertThat(FailureClassifier.retryHint("greylisted, retry after 300s")).contains(Duration.ofSeconds(300));
        assertThat(FailureClassifier.retryHint("please try again later in 2 hours")).contains(Duration.ofHours(2));
        assertThat(FailureClassifier.retryHint("4.2.2 mailbox full")).isEqualTo(Optional.empty());
    }
}
