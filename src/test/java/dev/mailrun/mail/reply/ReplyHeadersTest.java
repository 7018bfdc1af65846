package dev.mailrun.mail.reply;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** What the replies mailbox's messages say of themselves, from their header lines. */
class ReplyHeadersTest {

    private static MimeMessage parse(String headers) throws Exception {
        String text = headers.replace("\n", "\r\n") + "\r\nThanks!\r\n";
        return new MimeMessage(Session.getInstance(new Properties()),
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void a_persons_reply_is_a_person_s_and_names_what_it_answers_parent_first() throws Exception {
        MimeMessage m = parse("""
                From: Reader <r1@list.example>
                Subject: Re: Spring sale
                In-Reply-To: <c1.r2.0123456789abcdef@sender.example>
                References: <start@list.example>
                 <middle@list.example> <c1.r2.0123456789abcdef@sender.example>
                Auto-Submitted: no
                """);
        assertThat(ReplyHeaders.kind(m)).isEqualTo(ReplyHeaders.Kind.PERSON);
        assertThat(ReplyHeaders.answered(m)).containsExactly("<c1.r2.0123456789abcdef@sender.example>",
                "<middle@list.example>", "<start@list.example>");
    }

    @Test
    void automatic_answers_are_told_by_their_headers_or_their_subject() throws Exception {
        for (String header : new String[] {"Auto-Submitted: auto-replied", "Auto-Submitted: auto-generated",
                "X-Autoreply: yes", "X-Autorespond: vacation", "Precedence: auto_reply", "Precedence: bulk",
                "Subject: Out of Office: Spring sale", "Subject: Automatic reply: Spring sale", "Subject: AUTO: away",
                "Subject: Abwesenheitsnotiz: Spring sale", "Subject: =?UTF-8?Q?R=C3=A9ponse_automatique?="}) {
            MimeMessage m = parse("From: r1@list.example\n" + header + "\n");
            assertThat(ReplyHeaders.kind(m)).as(header).isEqualTo(ReplyHeaders.Kind.AUTOMATIC);
        }
        assertThat(ReplyHeaders.kind(parse("From: r1@list.example\nSubject: Re: Automatic reply wanted?\n")))
                .isEqualTo(ReplyHeaders.Kind.PERSON);
    }

    @Test
    void delivery_and_feedback_reports_are_the_bounce_mailbox_s() throws Exception {
        for (String headers : new String[] {"From: MAILER-DAEMON@mx.example\n", "From: postmaster@mx.example\n",
                "From: r1@list.example\nReturn-Path: <>\n", "From: r1@list.example\nX-Failed-Recipients: r1@list.example\n",
                "From: r1@list.example\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\n"}) {
            assertThat(ReplyHeaders.kind(parse(headers))).as(headers).isEqualTo(ReplyHeaders.Kind.REPORT);
        }
    }

    @Test
    void the_time_written_is_its_date_unless_missing_or_in_the_future() throws Exception {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        assertThat(ReplyHeaders.writtenAt(parse("Date: Mon, 23 Nov 2026 11:00:00 +0000\n"), now))
                .isEqualTo(Instant.parse("2026-11-23T11:00:00Z"));
        assertThat(ReplyHeaders.writtenAt(parse("Date: Mon, 23 Nov 2026 13:00:00 +0000\n"), now)).isEqualTo(now);
        assertThat(ReplyHeaders.writtenAt(parse("Subject: x\n"), now)).isEqualTo(now);
    }

    @Test
    void a_long_thread_gives_at_most_the_last_ids() throws Exception {
        StringBuilder refs = new StringBuilder("References:");
        for (int i = 0; i < 80; i++) {
            refs.append(" <id").append(i).append("@list.example>");
        }
        assertThat(ReplyHeaders.answered(parse(refs + "\n"))).hasSize(ReplyHeaders.MAX_IDS)
                .startsWith("<id79@list.example>");
    }
}
