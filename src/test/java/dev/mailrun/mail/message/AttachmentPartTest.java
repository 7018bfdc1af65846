package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.SerialisedMessage;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AttachmentPartTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2030-01-02T03:04:05Z"), ZoneOffset.UTC);
    private static final Session SESSION = MessageComposer.newSession("sender.example.com");

    @Test
    void a_message_with_files_is_multipart_mixed_with_the_bodies_first_and_each_file_byte_identical() throws Exception {
        byte[] pdf = random(100_000, 1);
        byte[] text = "Zeile 1\nZeile 2 — Grüße\n".getBytes(StandardCharsets.UTF_8);
        byte[] raw = compose(List.of(AttachmentPart.attachment("Programm 2030.pdf", "application/pdf", pdf),
                AttachmentPart.attachment("Preisliste für Köln.txt", "text/plain", text)));

        MimeMessage parsed = strictParse(raw);
        assertThat(parsed.getContentType()).startsWith("multipart/mixed");
        MimeMultipart mixed = (MimeMultipart) parsed.getContent();
        assertThat(mixed.getCount()).isEqualTo(3);
        assertThat(mixed.getBodyPart(0).getContentType()).startsWith("multipart/alternative");
        MimeMultipart alternative = (MimeMultipart) mixed.getBodyPart(0).getContent();
        assertThat(alternative.getBodyPart(0).getContentType()).startsWith("text/plain");
        assertThat(alternative.getBodyPart(1).getContentType()).startsWith("text/html");
        assertThat((String) alternative.getBodyPart(0).getContent()).contains("Hello Ann");

        MimeBodyPart first = (MimeBodyPart) mixed.getBodyPart(1);
        assertThat(first.getDisposition()).isEqualTo(Part.ATTACHMENT);
        assertThat(first.getFileName()).isEqualTo("Programm 2030.pdf");
        assertThat(first.getContentType()).startsWith("application/pdf");
        assertThat(first.getEncoding()).isEqualTo("base64");
        assertThat(first.getInputStream().readAllBytes()).isEqualTo(pdf);
        MimeBodyPart second = (MimeBodyPart) mixed.getBodyPart(2);
        assertThat(second.getFileName()).isEqualTo("Preisliste für Köln.txt");
        assertThat(second.getInputStream().readAllBytes()).isEqualTo(text);
    }

    @Test
    void non_ascii_and_long_names_are_written_per_rfc_2231_and_no_line_is_longer_than_allowed() throws Exception {
        String longName = "Jahresbericht der Genossenschaft für erneuerbare Energien Köln-Ehrenfeld 2030.pdf";
        byte[] raw = compose(List.of(AttachmentPart.attachment(longName, "application/pdf", random(5_000, 2))));
        String wire = new String(raw, StandardCharsets.US_ASCII);

        assertThat(wire).contains("filename*0*=UTF-8''Jahresbericht").doesNotContain("=?UTF-8?");
        int base64Lines = 0;
        boolean inFile = false;
        for (String line : wire.split("\r\n", -1)) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(998);
            if (line.startsWith("Content-Transfer-Encoding: base64")) {
                inFile = true;
            } else if (inFile && line.startsWith("--")) {
                inFile = false;
            } else if (inFile && !line.isEmpty() && !line.startsWith("Content-") && !line.startsWith("\t")
                    && !line.startsWith(" ")) {
                assertThat(line.length()).as("base64 line").isLessThanOrEqualTo(76);
                base64Lines++;
            }
        }
        assertThat(base64Lines).isGreaterThan(60);
        assertThat(strictParse(raw).getContent()).isInstanceOf(MimeMultipart.class);
        assertThat(((MimeMultipart) strictParse(raw).getContent()).getBodyPart(1).getFileName()).isEqualTo(longName);
    }

    @Test
    void the_same_encoded_part_goes_into_every_message_unchanged() throws Exception {
        AttachmentPart part = AttachmentPart.attachment("a.bin", "application/octet-stream", random(3_000, 3));
        CampaignComposer composer = campaign(List.of(part));

        for (String to : List.of("ann@example.org", "bob@example.org")) {
            MimeMultipart mixed = (MimeMultipart) strictParse(bytes(composer, to)).getContent();
            assertThat(mixed.getBodyPart(1).getInputStream().readAllBytes()).isEqualTo(random(3_000, 3));
        }
    }

    @Test
    void a_utf8_text_file_says_its_charset_so_a_reader_decodes_it_as_written() throws Exception {
        byte[] text = "Zeile 2 — Grüße aus Köln\n".getBytes(StandardCharsets.UTF_8);
        byte[] latin1 = "Grüße\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] raw = compose(List.of(AttachmentPart.attachment("Grüße.txt", "text/plain", text),
                AttachmentPart.attachment("prices.csv", "text/csv", "a,b\n1,2\n".getBytes(StandardCharsets.US_ASCII)),
                AttachmentPart.attachment("old.txt", "text/plain", latin1),
                AttachmentPart.attachment("a.pdf", "application/pdf", random(300, 8))));

        MimeMultipart mixed = (MimeMultipart) strictParse(raw).getContent();
        MimeBodyPart utf8 = (MimeBodyPart) mixed.getBodyPart(1);
        assertThat(new jakarta.mail.internet.ContentType(utf8.getContentType()).getParameter("charset")).isEqualTo("UTF-8");
        assertThat((String) utf8.getContent()).isEqualTo("Zeile 2 — Grüße aus Köln\n");
        assertThat(utf8.getFileName()).isEqualTo("Grüße.txt");
        assertThat(new jakarta.mail.internet.ContentType(mixed.getBodyPart(2).getContentType()).getParameter("charset"))
                .as("ASCII is UTF-8 too").isEqualTo("UTF-8");
        assertThat(new jakarta.mail.internet.ContentType(mixed.getBodyPart(3).getContentType()).getParameter("charset"))
                .as("text that is not UTF-8 claims no charset").isNull();
        assertThat(mixed.getBodyPart(3).getInputStream().readAllBytes()).isEqualTo(latin1);
        assertThat(new jakarta.mail.internet.ContentType(mixed.getBodyPart(4).getContentType()).getParameter("charset")).isNull();
    }

    @Test
    void an_empty_file_is_carried_as_an_empty_part() throws Exception {
        byte[] raw = compose(List.of(AttachmentPart.attachment("empty.txt", "text/plain", new byte[0])));

        MimeMultipart mixed = (MimeMultipart) strictParse(raw).getContent();
        assertThat(mixed.getCount()).isEqualTo(2);
        assertThat(mixed.getBodyPart(1).getInputStream().readAllBytes()).isEmpty();
    }

    @Test
    void a_message_without_files_stays_multipart_alternative() throws Exception {
        assertThat(strictParse(compose(List.of())).getContentType()).startsWith("multipart/alternative");
    }

    @Test
    void inline_images_go_into_multipart_related_after_the_bodies_with_their_content_id() throws Exception {
        byte[] logo = random(2_000, 4);
        byte[] raw = compose(List.of(AttachmentPart.inline("logo.png", "image/png", logo)));

        MimeMessage parsed = strictParse(raw);
        assertThat(parsed.getContentType()).startsWith("multipart/related").contains("type=\"multipart/alternative\"");
        MimeMultipart related = (MimeMultipart) parsed.getContent();
        assertThat(related.getCount()).isEqualTo(2);
        assertThat(related.getBodyPart(0).getContentType()).startsWith("multipart/alternative");
        MimeBodyPart image = (MimeBodyPart) related.getBodyPart(1);
        assertThat(image.getContentID()).isEqualTo("<logo.png>");
        assertThat(image.getDisposition()).isEqualTo(Part.INLINE);
        assertThat(image.getInputStream().readAllBytes()).isEqualTo(logo);
    }

    @Test
    void with_inline_images_attached_files_and_an_own_file_the_message_nests_related_inside_mixed() throws Exception {
        byte[] logo = random(2_000, 5);
        byte[] own = random(700, 6);
        CampaignComposer composer = campaign(List.of(AttachmentPart.attachment("terms.pdf", "application/pdf", random(900, 7)),
                AttachmentPart.inline("logo.png", "image/png", logo)));
        SerialisedMessage message = composer.compose(SESSION, new RecipientFields(new Mailbox("ann@example.org", "Ann"),
                "<c1.r1.x@example.com>", "https://example.com/u/T", Optional.empty(), Optional.empty()),
                new RenderedContent("March", "Hello Ann\n", "<p><img src=\"cid:logo.png\"></p>\n"),
                Optional.of(AttachmentPart.attachment("ticket 1.pdf", "application/pdf", own)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        message.writeTo(out);

        MimeMultipart mixed = (MimeMultipart) strictParse(out.toByteArray()).getContent();
        assertThat(mixed.getContentType()).startsWith("multipart/mixed");
        assertThat(mixed.getCount()).isEqualTo(3);
        MimeMultipart related = (MimeMultipart) mixed.getBodyPart(0).getContent();
        assertThat(related.getContentType()).startsWith("multipart/related");
        assertThat(((MimeMultipart) related.getBodyPart(0).getContent()).getCount()).isEqualTo(2);
        assertThat(related.getBodyPart(1).getInputStream().readAllBytes()).isEqualTo(logo);
        assertThat(mixed.getBodyPart(1).getFileName()).isEqualTo("terms.pdf");
        assertThat(mixed.getBodyPart(2).getFileName()).isEqualTo("ticket 1.pdf");
        assertThat(mixed.getBodyPart(2).getInputStream().readAllBytes()).isEqualTo(own);
    }

    @Test
    void an_inline_image_needs_a_name_that_can_be_its_content_id() {
        assertThatThrownBy(() -> AttachmentPart.inline("my logo.png", "image/png", new byte[1]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Content-ID");
    }

    @Test
    void a_name_or_type_that_would_break_the_header_is_refused() {
        assertThatThrownBy(() -> AttachmentPart.attachment("a\r\nBcc: x@example.org", "text/plain", new byte[1]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("control character");
        assertThatThrownBy(() -> AttachmentPart.attachment("../etc/passwd", "text/plain", new byte[1]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AttachmentPart.attachment("a.txt", "text/plain\r\nX: y", new byte[1]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a media type");
    }

    private static byte[] compose(List<AttachmentPart> parts) throws Exception {
        return bytes(campaign(parts), "ann@example.org");
    }

    private static CampaignComposer campaign(List<AttachmentPart> parts) {
        return new MessageComposer(CLOCK).forCampaign(new Mailbox("news@example.com", "News"), Optional.empty(),
                "c1.lists.example.com", "March", parts);
    }

    private static byte[] bytes(CampaignComposer composer, String to) throws Exception {
        SerialisedMessage message = composer.compose(SESSION, new RecipientFields(new Mailbox(to, "Ann"),
                "<c1.r1.x@example.com>", "https://example.com/u/T", Optional.empty(), Optional.empty()),
                new RenderedContent("March", "Hello Ann\n", "<p>Hello Ann</p>\n"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        message.writeTo(out);
        return out.toByteArray();
    }

    /** The mail API's parser told to refuse what it would otherwise let pass (a missing end boundary). */
    static MimeMessage strictParse(byte[] raw) throws Exception {
        Properties p = new Properties();
        p.setProperty("mail.mime.multipart.ignoremissingendboundary", "false");
        p.setProperty("mail.mime.multipart.ignoremissingboundaryparameter", "false");
        p.setProperty("mail.mime.multipart.ignoreexistingboundaryparameter", "false");
        p.setProperty("mail.mime.multipart.allowempty", "false");
        p.setProperty("mail.mime.parameters.strict", "true");
        p.setProperty("mail.mime.decodeparameters.strict", "true");
        p.setProperty("mail.mime.base64.ignoreerrors", "false");
        MimeMessage m = new MimeMessage(Session.getInstance(p), new ByteArrayInputStream(raw));
        touch(m);
        return m;
    }

    /** Reads every part, so a structural problem fails here. */
    private static void touch(Part part) throws Exception {
        Object content = part.getContent();
        if (content instanceof MimeMultipart mp) {
            for (int i = 0; i < mp.getCount(); i++) {
                touch(mp.getBodyPart(i));
            }
        } else {
            part.getInputStream().readAllBytes();
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }
}
