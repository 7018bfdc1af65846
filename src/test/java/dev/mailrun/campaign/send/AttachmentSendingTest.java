package dev.mailrun.campaign.send;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.attach.AttachmentFiles;
import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.importing.RecipientImportReport;
import dev.mailrun.campaign.importing.RecipientImporter;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.mail.dkim.DkimSettings;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.dkim.RelaxedDkimVerifier;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A campaign with attached files, sent through the real sending path to GreenMail: every message
 * parses strictly, carries each file byte for byte under its name, and its DKIM signature verifies.
 */
class AttachmentSendingTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void every_message_carries_the_files_byte_identical_after_a_strict_parse_and_its_dkim_signature_verifies() throws Exception {
        byte[] pdf = pdf(100_000);
        Path programme = Files.write(dir.resolve("Programm 2030.pdf"), pdf);
        byte[] prices = "Artikel;Preis\nKäse;4,20 €\n".getBytes(StandardCharsets.UTF_8);
        Path list = Files.write(dir.resolve("Preisliste für Köln.csv"), prices);
        byte[] png = png(3_000);
        Path logo = Files.write(dir.resolve("logo.png"), png);
        KeyPair keys = rsa();
        Path key = dir.resolve("dkim.pem");
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        DkimSigner dkim = new DkimSigner(new DkimSettings("sender.example", "s1", key));
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(2));

        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.builder().through("test-relay", 0), "w1", SendEvents.NONE, Optional.of(dkim))) {
            List<Attachment> files = new AttachmentFiles(AttachmentLimits.DEFAULTS).read(List.of(programme, list), List.of(logo));
            long id = h.campaigns.create(new NewCampaign("Programme", "welcome", "news@sender.example", Optional.of("News"),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.empty(), files);
            assertThat(h.campaigns.attachments(id)).extracting(Attachment.Summary::toString).containsExactly(
                    "Programm 2030.pdf (application/pdf, 100000 bytes)", "Preisliste für Köln.csv (text/csv, " + prices.length + " bytes)", "logo.png (image/png, 3000 bytes, inline)");
            CampaignFixtures.recipients(db.dataSource(), id, 3);
            h.campaigns.start(id);
            for (int tick = 0; tick < 5 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; tick++) {
                h.scheduler.tick();
                clock.set(clock.peek().plus(INTERVAL));
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
        }

        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(3);
        for (MimeMessage m : received) {
            String raw = GreenMailUtil.getWholeMessage(m);
            RelaxedDkimVerifier.Result dkimResult = RelaxedDkimVerifier.verify(raw, keys.getPublic());
            assertThat(dkimResult.bodyHashMatches()).as("bh=").isTrue();
            assertThat(dkimResult.signatureValid()).as("b=").isTrue();
            assertThat(raw).contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click");

            MimeMultipart mixed = (MimeMultipart) strictParse(raw.getBytes(StandardCharsets.ISO_8859_1)).getContent();
            assertThat(mixed.getContentType()).startsWith("multipart/mixed");
            assertThat(mixed.getCount()).isEqualTo(3);
            MimeMultipart related = (MimeMultipart) mixed.getBodyPart(0).getContent();
            assertThat(related.getContentType()).startsWith("multipart/related");
            assertThat(related.getBodyPart(0).getContentType()).startsWith("multipart/alternative");
            assertThat(((MimeBodyPart) related.getBodyPart(1)).getContentID()).isEqualTo("<logo.png>");
            assertThat(related.getBodyPart(1).getInputStream().readAllBytes()).isEqualTo(png);
            MimeBodyPart first = (MimeBodyPart) mixed.getBodyPart(1);
            assertThat(first.getFileName()).isEqualTo("Programm 2030.pdf");
            assertThat(first.getDisposition()).isEqualTo(Part.ATTACHMENT);
            assertThat(first.getInputStream().readAllBytes()).isEqualTo(pdf);
            MimeBodyPart second = (MimeBodyPart) mixed.getBodyPart(2);
            assertThat(second.getFileName()).isEqualTo("Preisliste für Köln.csv");
            assertThat(second.getContentType()).startsWith("text/csv");
            assertThat(second.getInputStream().readAllBytes()).isEqualTo(prices);
        }
    }

    @Test
    void a_recipients_own_file_is_checked_at_import_and_carried_after_the_campaigns_files() throws Exception {
        Path root = Files.createDirectories(dir.resolve("files"));
        byte[] annTicket = pdf(40_000);
        Files.createDirectories(root.resolve("tickets"));
        Files.write(root.resolve("tickets/ann.pdf"), annTicket);
        Files.write(root.resolve("tickets/cat.pdf"), pdf(1_000));
        Files.writeString(dir.resolve("secret.txt"), "not for mailing");
        Files.createSymbolicLink(root.resolve("tickets/link.txt"), dir.resolve("secret.txt"));
        Path campaignFile = Files.writeString(dir.resolve("terms.txt"), "Terms and conditions\n");
        Path csv = Files.writeString(dir.resolve("list.csv"), String.join("\n",
                "email,name,attachment",
                "ann@example.org,Ann,tickets/ann.pdf",
                "bob@example.org,Bob,",
                "cat@example.org,Cat,tickets/cat.pdf",
                "eve@example.org,Eve,../secret.txt",
                "mal@example.org,Mal,tickets/link.txt",
                "abs@example.org,Abs," + dir.resolve("secret.txt"),
                "gone@example.org,Gone,tickets/gone.pdf") + "\n");
        RecipientFiles files = RecipientFiles.under(root, AttachmentLimits.DEFAULTS);
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(2));

        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.builder().through("test-relay", 0), "w1", SendEvents.NONE, Optional.empty(), files)) {
            long id = h.campaigns.create(new NewCampaign("Tickets", "welcome", "news@sender.example", Optional.of("News"),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.empty(),
                    new AttachmentFiles(AttachmentLimits.DEFAULTS).read(List.of(campaignFile)));
            RecipientImportReport report = new RecipientImporter(db.dataSource(), new PinnedTemplates(db.dataSource(), Clock.systemUTC()),
                    AddressFilter.none(), clock, ImportSettings.defaults()).withRecipientFiles(files)
                    .importCsv(id, csv, Optional.empty(), n -> { });

            assertThat(report.imported()).isEqualTo(3);
            // Replaced after the import: the message must not carry a file nobody checked.
            Files.writeString(root.resolve("tickets/cat.pdf"), "%PDF-1.4 another file");
            assertThat(report.firstRejects()).extracting(r -> r.email() + ": " + r.reason() + " " + r.detail()).containsExactly(
                    "eve@example.org: ATTACHMENT '../secret.txt' contains '..'; it must stay under content.recipient-files",
                    "mal@example.org: ATTACHMENT 'tickets/link.txt' leads outside content.recipient-files (through a symbolic link)",
                    "abs@example.org: ATTACHMENT '" + dir.resolve("secret.txt") + "' is an absolute path; give it relative to "
                            + "content.recipient-files",
                    "gone@example.org: ATTACHMENT no file tickets/gone.pdf under content.recipient-files");
            h.campaigns.start(id);
            for (int tick = 0; tick < 5 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; tick++) {
                h.scheduler.tick();
                clock.set(clock.peek().plus(INTERVAL));
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "failed")).isEqualTo(1);
            java.io.StringWriter export = new java.io.StringWriter();
            new dev.mailrun.campaign.CampaignExport(db.dataSource()).write(id, export);
            String annTicketSha = sha256(annTicket);
            assertThat(export.toString().lines().toList()).anySatisfy(line -> assertThat(line)
                    .contains("ann@example.org,sent").endsWith(",terms.txt; ann.pdf," + annTicketSha + ",,welcome@1"))
                    .anySatisfy(line -> assertThat(line).contains("bob@example.org,sent").endsWith(",terms.txt,,,welcome@1"))
                    .anySatisfy(line -> assertThat(line).contains("cat@example.org,failed")
                            .contains("attachment tickets/cat.pdf has changed since it was imported (checksum differs)"));
        }

        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(2);
        for (MimeMessage m : received) {
            String to = m.getAllRecipients()[0].toString();
            MimeMultipart mixed = (MimeMultipart) strictParse(GreenMailUtil.getWholeMessage(m).getBytes(StandardCharsets.ISO_8859_1))
                    .getContent();
            assertThat(mixed.getBodyPart(1).getFileName()).isEqualTo("terms.txt");
            if (to.contains("ann@")) {
                assertThat(mixed.getCount()).isEqualTo(3);
                assertThat(mixed.getBodyPart(2).getFileName()).isEqualTo("ann.pdf");
                assertThat(mixed.getBodyPart(2).getContentType()).startsWith("application/pdf");
                assertThat(mixed.getBodyPart(2).getInputStream().readAllBytes()).isEqualTo(annTicket);
            } else {
                assertThat(mixed.getCount()).isEqualTo(2);
            }
        }
    }

    private static MimeMessage strictParse(byte[] raw) throws Exception {
        Properties p = new Properties();
        p.setProperty("mail.mime.multipart.ignoremissingendboundary", "false");
        p.setProperty("mail.mime.multipart.ignoremissingboundaryparameter", "false");
        p.setProperty("mail.mime.multipart.allowempty", "false");
        p.setProperty("mail.mime.parameters.strict", "true");
        p.setProperty("mail.mime.decodeparameters.strict", "true");
        p.setProperty("mail.mime.base64.ignoreerrors", "false");
        MimeMessage m = new MimeMessage(Session.getInstance(p), new ByteArrayInputStream(raw));
        readAll(m);
        return m;
    }

    private static String sha256(byte[] b) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
    }

    /** Reads every part, so a structural problem fails the parse. */
    private static void readAll(Part part) throws Exception {
        if (part.getContent() instanceof MimeMultipart mp) {
            for (int i = 0; i < mp.getCount(); i++) {
                readAll(mp.getBodyPart(i));
            }
        } else {
            part.getInputStream().readAllBytes();
        }
    }

    private static byte[] png(int size) {
        byte[] b = new byte[size];
        new SplittableRandom(8).nextBytes(b);
        byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        System.arraycopy(signature, 0, b, 0, signature.length);
        return b;
    }

    private static byte[] pdf(int size) {
        byte[] b = new byte[size];
        new SplittableRandom(7).nextBytes(b);
        System.arraycopy("%PDF-1.7\n".getBytes(StandardCharsets.US_ASCII), 0, b, 0, 9);
        return b;
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }
}
