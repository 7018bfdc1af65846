package dev.mailrun.campaign.send;

import dev.mailrun.campaign.CampaignExport;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.StatusCounts;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A campaign sends the template version it pinned at creation: edits on disk and new stored versions
 * reach no message of it; an operator moves a paused campaign to another version explicitly, and the
 * export names the version each recipient was sent.
 */
class ContentPinningTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    @TempDir
    Path templatesDir;

    @Test
    void edits_on_disk_and_in_the_store_mid_campaign_leave_its_messages_unchanged() throws Exception {
        String name = "pin-edit-" + System.nanoTime() % 100000;
        write(name, "one");
        SettableClock clock = new SettableClock(T0);
        AtomicBoolean firstLate = new AtomicBoolean(true);
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", c -> c.argument().contains("late@") && firstLate.getAndSet(false)
                        ? ScriptedSmtpServer.Reply.of(451, "4.7.1 try again later") : ScriptedSmtpServer.Reply.ok())
                .start()) {
            Sending s = new Sending(smtp.port(), clock);
            long id = s.campaigns.create(campaign(name));
            ContentPin pinned = s.campaigns.contentHistory(id).get(0).to() == 1 ? new ContentPin(name, 1) : null;
            assertThat(pinned).as("created from text never stored: stored as version 1 and pinned").isNotNull();
            recipients(id, "ann", "bob", "late");
            s.campaigns.start(id);
            try (Scheduler scheduler = s.scheduler()) {
                scheduler.tick();
                assertThat(smtp.messages()).hasSize(2);

                // The template changes on disk, and a new version is stored, while late@ waits for its retry.
                write(name, "two");
                TemplateStore store = new TemplateStore(db.dataSource(), clock, TemplateStore.DEFAULT_MAX_BYTES);
                assertThat(store.save(new TemplateLoader(templatesDir).read(name).source(), "test"))
                        .isInstanceOf(TemplateStore.Saved.NewVersion.class);

                for (int i = 1; i <= 60 && smtp.messages().size() < 3; i++) {
                    clock.set(T0.plus(INTERVAL.multipliedBy(i * 6L)));
                    scheduler.tick();
                }
            }
            assertThat(smtp.messages()).hasSize(3).allSatisfy(m -> assertThat(m).contains("Version one").doesNotContain("two"));
            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            // A campaign created now pins the new text.
            long next = s.campaigns.create(campaign(name));
            assertThat(s.campaigns.contentHistory(next)).singleElement().satisfies(c -> assertThat(c.to()).isEqualTo(2));
        }
    }

    @Test
    void a_paused_campaign_moves_to_another_version_only_explicitly_and_the_export_names_each_recipients_version()
            throws Exception {
        String name = "pin-move-" + System.nanoTime() % 100000;
        write(name, "one");
        SettableClock clock = new SettableClock(T0);
        AtomicBoolean firstLate = new AtomicBoolean(true);
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", c -> c.argument().contains("late@") && firstLate.getAndSet(false)
                        ? ScriptedSmtpServer.Reply.of(451, "4.7.1 try again later") : ScriptedSmtpServer.Reply.ok())
                .start()) {
            Sending s = new Sending(smtp.port(), clock);
            long done = s.campaigns.create(campaign(name));
            recipients(done, "ann");
            s.campaigns.start(done);
            try (Scheduler scheduler = s.scheduler()) {
                scheduler.tick();
            }
            assertThat(s.campaigns.get(done).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThatThrownBy(() -> s.campaigns.moveContent(done, name, Optional.empty(), Optional.empty(), "ops"))
                    .as("a completed campaign's content never changes").isInstanceOf(CampaignException.class)
                    .hasMessageContaining("is completed");

            write(name, "two");
            long id = s.campaigns.create(campaign(name));
            assertThat(s.campaigns.contentHistory(id).get(0).to()).as("the directory's new text, stored as 2").isEqualTo(2);
            recipients(id, "cy", "late");
            s.campaigns.start(id);
            assertThatThrownBy(() -> s.campaigns.moveContent(id, name, Optional.of(1), Optional.empty(), "ops"))
                    .as("running").isInstanceOf(CampaignException.class).hasMessageContaining("is running");
            clock.set(T0.plus(INTERVAL));
            try (Scheduler scheduler = s.scheduler()) {
                scheduler.tick();
            }
            assertThat(smtp.messages()).hasSize(2);
            assertThat(smtp.messages().get(1)).contains("Version two");
            s.campaigns.pause(id, "content change");
            assertThatThrownBy(() -> s.campaigns.moveContent(id, name, Optional.of(9), Optional.empty(), "ops"))
                    .isInstanceOf(InvalidFields.class).hasMessageContaining("has no version 9");
            clock.set(T0.plus(INTERVAL.multipliedBy(2)));
            assertThat(s.campaigns.moveContent(id, name, Optional.of(1), Optional.empty(), "ops"))
                    .isEqualTo(new ContentPin(name, 1));
            assertThat(s.campaigns.contentHistory(id)).extracting(c -> c.to() + " by " + c.by())
                    .containsExactly("2 by campaign creation", "1 by ops");
            s.campaigns.resume(id);
            try (Scheduler scheduler = s.scheduler()) {
                for (int i = 3; i <= 60 && smtp.messages().size() < 3; i++) {
                    clock.set(T0.plus(INTERVAL.multipliedBy(i * 6L)));
                    scheduler.tick();
                }
            }
            assertThat(smtp.messages()).hasSize(3);
            assertThat(smtp.messages().get(2)).as("late@, after the move").contains("Version one");

            TemplateStore store = new TemplateStore(db.dataSource(), clock, TemplateStore.DEFAULT_MAX_BYTES);
            assertThatThrownBy(() -> store.delete(name, 1)).isInstanceOf(CampaignException.class)
                    .hasMessageContaining("is sent by campaign(s) " + done + ", " + id);
            assertThatThrownBy(() -> store.delete(name, 2)).as("no longer pinned, but messages were sent from it")
                    .isInstanceOf(CampaignException.class).hasMessageContaining("is sent by campaign(s) " + id);
            write(name, "three");
            assertThat(store.save(new TemplateLoader(templatesDir).read(name).source(), "test"))
                    .isEqualTo(new TemplateStore.Saved.NewVersion(name, 3, false));
            store.delete(name, 3);
            assertThat(store.versions(name)).extracting(v -> v.version()).containsExactly(2, 1);

            StringWriter csv = new StringWriter();
            new CampaignExport(db.dataSource()).write(id, csv);
            assertThat(csv.toString().lines().skip(1))
                    .anySatisfy(line -> assertThat(line).contains(",cy@list.example,").endsWith("," + name + "@2"))
                    .anySatisfy(line -> assertThat(line).contains(",late@list.example,").endsWith("," + name + "@1"));
        }
    }

    @Test
    void a_template_in_neither_the_store_nor_the_directory_is_refused_at_creation() throws Exception {
        SettableClock clock = new SettableClock(T0);
        Sending s = new Sending(1, clock);
        assertThatThrownBy(() -> s.campaigns.create(campaign("pin-nowhere")))
                .isInstanceOf(InvalidFields.class)
                .hasMessageContaining("no template named pin-nowhere is stored, nor written in templates.dir");
    }

    private final class Sending {
        final SendTask task;
        final Campaigns campaigns;
        final SettableClock clock;

        Sending(int port, SettableClock clock) {
            this.clock = clock;
            OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(100)
                    .retries(3, Duration.ofMinutes(1)).through("relay-pinning", 0);
            task = new SendTask(SendDependenciesFixtures.oneRelay(db.dataSource(), new TemplateLoader(templatesDir),
                    SmtpSettings.of("127.0.0.1", port, TlsMode.NONE, "mailrun.test"),
                    Secret.of("message-id-key-for-tests-0123456789"), new FixedLinks(), settings, () -> new Random(7),
                    TestTiming.realTime(clock)));
            campaigns = new Campaigns(db.dataSource(), new TaskStore(db.dataSource()), new TemplateLoader(templatesDir), clock,
                    INTERVAL);
        }

        Scheduler scheduler() {
            return new Scheduler(db.dataSource(), HandlerRegistry.of(task), SchedulerConfig.defaults("w-pin"), clock);
        }
    }

    private static NewCampaign campaign(String template) {
        return new NewCampaign("Pinned", template, "news@sender.example", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    private void recipients(long id, String... locals) throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO recipient (campaign_id, email, name, status, updated_at)
                    VALUES (?, ?, ?, 'pending', UTC_TIMESTAMP(3))""")) {
                for (String local : locals) {
                    ps.setLong(1, id);
                    ps.setString(2, local + "@list.example");
                    ps.setString(3, local);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            StatusCounts.rebuild(c, id);
            return null;
        });
    }

    private void write(String name, String version) throws Exception {
        Path dir = Files.createDirectories(templatesDir.resolve(name));
        String word = version.substring(0, 1).toUpperCase() + version.substring(1);
        Files.writeString(dir.resolve("subject.txt"), "Version " + version + "\n");
        Files.writeString(dir.resolve("body.txt"), "Version " + version + " of the news.\n");
        Files.writeString(dir.resolve("body.html"), "<p>Version " + version + " of the news (" + word + ").</p>\n");
    }
}
