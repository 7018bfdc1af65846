package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.testing.AudienceFixtures;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An import in {@code unsubscribe} mode into a list while a campaign to that list starts, on the real
 * database and through GreenMail (docs/AUDIENCE.md, "What the statement sees"). The materialisation's
 * {@code INSERT … SELECT} reads one snapshot taken when it begins (READ COMMITTED: a consistent read), so:
 * every unsubscribe committed before the start is left out; each import batch (one transaction) is seen
 * whole or not at all; nobody is a recipient or mailed twice.
 */
class MaterialiseDuringImportTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final int MEMBERS = 1600;
    private static final int UNSUBSCRIBED = 1500;
    /** ImportBatch.MAX_ROWS: the rows of one import transaction. */
    private static final int BATCH = 500;

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-24T10:00:00Z"), Duration.ofMillis(2));
    private final Lists lists = new Lists(db.dataSource(), clock);
    private SendingHarness h;

    @BeforeEach
    void setUp() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("UPDATE task SET enabled = 0");
            s.execute("DELETE FROM campaign_list");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
        }
        greenMail.purgeEmailFromAllMailboxes();
        h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.builder().through("test-relay", 0), "w1", SendEvents.NONE);
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void an_unsubscribe_committed_before_the_start_is_never_sent_a_batch_is_seen_whole_and_nobody_twice() throws Exception {
        long news = lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE)).id();
        AudienceFixtures.subscribe(db.dataSource(), news, "p", MEMBERS);
        // Shuffled, so every batch holds people from the whole id range the statement reads in order.
        List<String> file = new ArrayList<>();
        for (int n = 0; n < UNSUBSCRIBED; n++) {
            file.add("p-" + n + "@example.com");
        }
        Collections.shuffle(file, new Random(57));
        Path csv = dir.resolve("leave.csv");
        Files.writeString(csv, "email\n" + String.join("\n", file) + "\n");
        long campaign = CampaignFixtures.campaign(db.dataSource(), "News");
        h.campaigns.targets().setLists(campaign, List.of("news"));

        // The import runs on its own thread; the start goes once its first batch has committed, while
        // the later batches commit.
        AtomicLong committed = new AtomicLong();
        CountDownLatch firstBatch = new CountDownLatch(1);
        SubscriberImporter importer = new SubscriberImporter(db.dataSource(), clock, AddressFilter.none(), ImportSettings.defaults());
        CompletableFuture<SubscriberImportReport> importing = CompletableFuture.supplyAsync(() -> {
            try {
                return importer.importCsv("news", ImportMode.UNSUBSCRIBE, csv, Optional.empty(), rows -> {
                    committed.set(rows);
                    firstBatch.countDown();
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(firstBatch.await(60, TimeUnit.SECONDS)).isTrue();
        long committedBeforeStart = committed.get();
        h.campaigns.start(campaign);
        assertThat(importing.get(60, TimeUnit.SECONDS).unsubscribed()).isEqualTo(UNSUBSCRIBED);

        Set<String> recipients = new HashSet<>(recipients(campaign));
        // Every unsubscribe committed before the start was called: not a recipient.
        assertThat(file.subList(0, (int) committedBeforeStart)).noneMatch(recipients::contains);
        // Each batch seen whole or not at all: one snapshot, not pages read at different times.
        for (int from = 0; from < file.size(); from += BATCH) {
            List<String> batch = file.subList(from, Math.min(file.size(), from + BATCH));
            long in = batch.stream().filter(recipients::contains).count();
            assertThat(in).as("batch from line %d", from + 2).isIn(0L, (long) batch.size());
        }
        // Everyone never unsubscribed is a recipient.
        for (int n = UNSUBSCRIBED; n < MEMBERS; n++) {
            assertThat(recipients).contains("p-" + n + "@example.com");
        }

        for (int tick = 0; tick < 2000 && h.campaigns.get(campaign).status() != CampaignStatus.COMPLETED; tick++) {
            h.scheduler.tick();
            clock.set(clock.peek().plus(INTERVAL));
        }
        assertThat(h.campaigns.get(campaign).status()).isEqualTo(CampaignStatus.COMPLETED);
        Map<String, Long> mailed = java.util.Arrays.stream(greenMail.getReceivedMessages())
                .map(MaterialiseDuringImportTest::to).collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(mailed.keySet()).isEqualTo(recipients);
        assertThat(mailed.values()).allMatch(count -> count == 1);
    }

    private static String to(MimeMessage m) {
        try {
            return m.getAllRecipients()[0].toString();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> recipients(long campaignId) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT email FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
