package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.internet.MimeMessage;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The metadata each provider echoes back reaches every message built with the relay's session: the
 * relay's settings say which providers' feedback is enabled, the composer writes their headers.
 */
class ProviderMetadataTest {

    private static final RenderedContent CONTENT = new RenderedContent("Hello", "Text\n", "<p>Html</p>\n");

    private static MimeMessage build(MessageTags tags, boolean forSend) throws Exception {
        SmtpSettings settings = TestMail.settings(2525).withMessageTags(tags);
        try (SmtpPool pool = new SmtpPool(settings, SendRateLimiter.unlimited(), TestMail.CLOCK)) {
            var fields = TestMail.fields(3456, "ann@list.example");
            return TestMail.COMPOSER.compose(pool.session(), forSend ? fields.forSend(12, 3456) : fields, CONTENT);
        }
    }

    @Test
    void every_enabled_provider_gets_the_campaign_and_recipient_ids_in_its_own_header() throws Exception {
        MimeMessage m = build(new MessageTags(EnumSet.allOf(Provider.class), Optional.of("mailrun-feedback")), true);

        assertThat(m.getHeader("X-SES-CONFIGURATION-SET", null)).isEqualTo("mailrun-feedback");
        assertThat(m.getHeader("X-SES-MESSAGE-TAGS", null)).isEqualTo("mailrun-campaign=12, mailrun-recipient=3456");
        assertThat(m.getHeader("X-PM-Metadata-mailrun-campaign", null)).isEqualTo("12");
        assertThat(m.getHeader("X-PM-Metadata-mailrun-recipient", null)).isEqualTo("3456");
        assertThat(m.getHeader("X-SMTPAPI", null))
                .isEqualTo("{\"unique_args\":{\"mailrun-campaign\":\"12\",\"mailrun-recipient\":\"3456\"}}");
        assertThat(m.getHeader("X-Mailgun-Variables", null)).isEqualTo("{\"mailrun-campaign\":\"12\",\"mailrun-recipient\":\"3456\"}");
    }

    @Test
    void a_provider_that_is_not_enabled_gets_no_header() throws Exception {
        MimeMessage postmarkOnly = build(new MessageTags(Set.of(Provider.POSTMARK), Optional.empty()), true);
        MimeMessage none = build(MessageTags.NONE, true);

        assertThat(postmarkOnly.getHeader("X-PM-Metadata-mailrun-campaign", null)).isEqualTo("12");
        for (String h : new String[] {"X-SES-MESSAGE-TAGS", "X-SES-CONFIGURATION-SET", "X-SMTPAPI", "X-Mailgun-Variables"}) {
            assertThat(postmarkOnly.getHeader(h)).as(h).isNull();
        }
        assertThat(java.util.Collections.list(none.getAllHeaderLines()))
                .noneMatch(l -> l.startsWith("X-SES") || l.startsWith("X-PM") || l.startsWith("X-SMTPAPI") || l.startsWith("X-Mailgun"));
    }

    @Test
    void a_message_built_without_send_ids_carries_no_metadata() throws Exception {
        MimeMessage m = build(new MessageTags(EnumSet.allOf(Provider.class), Optional.empty()), false);

        assertThat(m.getHeader("X-SES-MESSAGE-TAGS")).isNull();
        assertThat(m.getHeader("X-SMTPAPI")).isNull();
    }
}
