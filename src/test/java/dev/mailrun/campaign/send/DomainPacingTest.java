package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.JumpingClock;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pacing by recipient domain against a real SMTP server, with real workers' schedulers: a capped
 * domain is held to its cap in total while the rest of the list goes at the relay's rate, and a
 * domain that answers "too fast" is slowed down alone.
 */
class DomainPacingTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(30);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");
    /**
     * A message that times out on this shared machine is retried in the next slot, not five minutes
     * later: these tests are about pace, not retries.
     */
    static final Duration RETRY_SOON = Duration.ofSeconds(1);
    private static final DomainGroups GMAIL_AT_5 = new DomainGroups(List.of(
            new DomainGroup("gmail", List.of("gmail.com", "googlemail.com"), 5)));

    @BeforeEach
    void no_rate_is_adapted_yet() throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("DELETE FROM adapted_rate")) {
            ps.executeUpdate();
        }
    }

    @Test
    void two_workers_hold_a_capped_domain_to_its_cap_and_send_the_rest_of_the_list_at_the_relay_rate() throws Exception {
        PacingFixtures.Arrivals arrivals = new PacingFixtures.Arrivals();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().on("MAIL", cmd -> {
            arrivals.mailFrom(cmd.connection());
            return Reply.ok();
        }).on("RCPT", cmd -> {
            arrivals.rcpt(cmd.connection(), cmd.argument());
            return Reply.ok();
        }).onMessage(cmd -> {
            arrivals.message(cmd.argument());
            return Reply.ok();
        }).start()) {
            JumpingClock clock = JumpingClock.startingAt(SLOT);
            OneRelaySettings settings = SendSettingsFixtures.builder().domainGroups(GMAIL_AT_5)
                    .retries(5, RETRY_SOON).through("relay-two-workers", 40);
            try (SendingHarness w1 = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1");
                 SendingHarness w2 = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w2")) {
                List<Long> ids = new ArrayList<>();
                for (int n = 0; n < 2; n++) {
                    long id = w1.campaigns.create(new NewCampaign("Paced " + n, "welcome", "news@sender.example",
                            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                    // 60% one capped domain, 40% others.
                    PacingFixtures.recipients(db.dataSource(), id, "c" + n + "-",
                            Map.of("gmail.com", 30, "other.example", 10, "third.example", 10));
                    w1.campaigns.start(id);
                    ids.add(id);
                }
                runUntilCompleted(clock, List.of(w1, w2), ids);

                List<Long> gmail = arrivals.of("gmail.com");
                List<Long> others = arrivals.allBut("gmail.com");
                System.out.printf("[pacing] at MAIL FROM: gmail=%d maxGmailInOneSecond=%d others=%d maxInOneSecond=%d%n", gmail.size(),
                        PacingFixtures.maxInOneSecond(gmail), others.size(), PacingFixtures.maxInOneSecond(arrivals.all()));
                assertThat(arrivals.perAddress).hasSize(100);
                assertThat(arrivals.perAddress.values()).as("messages per address").containsOnly(1);
                assertThat(PacingFixtures.maxInOneSecond(gmail)).as("gmail.com messages in any one second").isLessThanOrEqualTo(5);
                assertThat(PacingFixtures.maxInOneSecond(arrivals.all())).as("messages in any one second").isLessThanOrEqualTo(40);
                // Not held behind the capped domain: the 40 others go at the relay's pace, all of
                // them before half of gmail.com's 60 (which take 12 s at 5/s).
                assertThat(others.get(others.size() - 1)).as("last other message").isLessThan(gmail.get(29));
                for (SendingHarness w : List.of(w1)) {
                    for (long id : ids) {
                        List<TaskRun> runs = w.tasks.recentRuns(SendTask.taskName(id), 20);
                        assertThat(runs).allSatisfy(r -> assertThat(r.overrun().orElse(Duration.ZERO)).isZero());
                    }
                }
                for (long id : ids) {
                    assertThat(count(id, "sent")).isEqualTo(50);
                }
            }
        }
    }

    /**
     * Two workers' runs join a capped group together, just as the run before them on it ends after a
     * last second at the cap: counted at the receiving server, by when each MAIL FROM came in, no
     * second of its clock holds more than the cap — not the one the run before filled, not any after.
     * The moment is forced: the run before (played by the test) holds the group until both runs have
     * found and handed over to each other, and the second worker's run is held back on its relay
     * until the first has counted what the run before sent.
     */
    @Test
    void two_runs_joining_a_capped_group_together_as_the_run_before_ends_keep_every_second_at_the_server_within_the_cap()
            throws Exception {
        // A group of a paced domain to warm the sending path with, at a pace that never holds it back.
        DomainGroups groups = new DomainGroups(List.of(new DomainGroup("gmail-joined", List.of("gmail.com"), 5),
                new DomainGroup("warm-up", List.of("warm.example"), 100)));
        String group = groups.groups().get(0).key();
        String secondRelay = "relay-joined-2";
        PacingFixtures.Arrivals arrivals = new PacingFixtures.Arrivals();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().on("MAIL", cmd -> {
            arrivals.mailFrom(cmd.connection());
            return Reply.ok();
        }).on("RCPT", cmd -> {
            arrivals.rcpt(cmd.connection(), cmd.argument());
            return Reply.ok();
        }).onMessage(cmd -> {
            arrivals.message(cmd.argument());
            return Reply.ok();
        }).start()) {
            JumpingClock clock = JumpingClock.startingAt(SLOT);
            // A relay of each worker's own, so that the second worker's run alone can be held back on it.
            OneRelaySettings first = SendSettingsFixtures.builder().domainGroups(groups).retries(5, RETRY_SOON).through("relay-joined-1", 40);
            OneRelaySettings second = SendSettingsFixtures.builder().domainGroups(groups).retries(5, RETRY_SOON).through(secondRelay, 40);
            // A pool each, as separate workers have: the moments forced here wait for no other's connections.
            DataSource own = db.newPool("joined-test", 2);
            try (SendingHarness w1 = new SendingHarness(db.newPool("joined-w1", 10), clock, smtp.port(), INTERVAL, first, "w1");
                 SendingHarness w2 = new SendingHarness(db.newPool("joined-w2", 10), clock, smtp.port(), INTERVAL, second, "w2")) {
                List<SendingHarness> workers = List.of(w1, w2);
                // Each worker sends a first campaign, so that the runs forced below send as soon as they
                // have joined, not after the first run's class loading and connections.
                runUntilCompleted(clock, workers, List.of(start(w1, "Warm-up 0", "w0-", Map.of("warm.example", 2)),
                        start(w1, "Warm-up 1", "w1-", Map.of("warm.example", 2))));
                List<Long> ids = List.of(start(w1, "Joined 0", "j0-", Map.of("gmail.com", 5)),
                        start(w1, "Joined 1", "j1-", Map.of("gmail.com", 5)));
                OtherRun before = new OtherRun(own, "the run before, ending").holding(group);
                OtherRun onSecondRelay = new OtherRun(own, "a run on the second relay").holding(secondRelay);
                List<Long> lastSecond;
                ExecutorService threads = Executors.newFixedThreadPool(2);
                try {
                    List<Future<?>> ticks = new ArrayList<>();
                    workers.forEach(w -> ticks.add(threads.submit(() -> w.scheduler.tick())));
                    String onSecond = ShareRows.awaitHolder(own, secondRelay, onSecondRelay.token());
                    String onFirst = ShareRows.awaitHolder(own, group, before.token(), onSecond);
                    // Each has found the other on the group and handed over to it: both wait for the run before.
                    ShareRows.awaitHandover(own, group, onFirst, onSecond);
                    ShareRows.awaitHandover(own, group, onSecond, onFirst);
                    // The run before sends its last second's five at once and ends.
                    before.send(smtp.port(), List.of("b0@gmail.com", "b1@gmail.com", "b2@gmail.com", "b3@gmail.com", "b4@gmail.com"));
                    lastSecond = arrivals.of("gmail.com");
                    before.end(group, lastSecond, group);
                    // The first worker's run counts it first; then the second's, let go on its relay.
                    ShareRows.awaitCounted(own, onFirst);
                    onSecondRelay.release(secondRelay);
                    for (Future<?> t : ticks) {
                        t.get();
                    }
                } finally {
                    threads.shutdownNow();
                }
                runUntilCompleted(clock, workers, ids);

                List<Long> gmail = arrivals.of("gmail.com");
                assertThat(lastSecond).as("the run before's last second").hasSize(5);
                assertThat(gmail).hasSize(15);
                assertThat(arrivals.perAddress.values()).as("messages per address").containsOnly(1);
                // The server's seconds begin as the run before sent the first of its five.
                long origin = lastSecond.get(0);
                assertThat(PacingFixtures.maxInOneSecond(gmail, origin)).as("gmail.com messages in one second of the server's clock; "
                        + "ms after the first: " + gmail.stream().map(t -> (t - origin) / 1_000_000).toList()).isLessThanOrEqualTo(5);
            }
        }
    }

    /** Creates and starts a campaign to {@code counts} recipients per domain; its id. */
    private static long start(SendingHarness w, String name, String prefix, Map<String, Integer> counts) throws Exception {
        long id = w.campaigns.create(new NewCampaign(name, "welcome", "news@sender.example",
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        PacingFixtures.recipients(db.dataSource(), id, prefix, counts);
        w.campaigns.start(id);
        return id;
    }

    @Test
    void a_deferral_storm_from_one_domain_slows_that_domain_alone_and_all_its_recipients_are_sent() throws Exception {
        PacingFixtures.Arrivals arrivals = new PacingFixtures.Arrivals();
        AtomicInteger deferred = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> {
                    if (cmd.argument().contains("@gmail.com") && deferred.incrementAndGet() <= 12) {
                        return Reply.of(421, "4.7.0 Try again later, closing connection. Our system has detected an unusual rate of mail").thenDrop();
                    }
                    arrivals.rcpt(cmd.argument());
                    return Reply.ok();
                })
                .onMessage(cmd -> {
                    arrivals.message(cmd.argument());
                    return Reply.ok();
                }).start()) {
            JumpingClock clock = JumpingClock.startingAt(SLOT);
            // gmail is a shipped group without a cap: it adapts from the relay's rate.
            OneRelaySettings settings = SendSettingsFixtures.builder().domainGroups(DomainGroups.DEFAULTS)
                    .failureRule(0.10, 20).retries(5, RETRY_SOON).through("relay-storm", 20);
            try (SendingHarness w = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1")) {
                long id = w.campaigns.create(new NewCampaign("Storm", "welcome", "news@sender.example",
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                PacingFixtures.recipients(db.dataSource(), id, "s-", Map.of("gmail.com", 30, "other.example", 30));
                w.campaigns.start(id);
                runUntilCompleted(clock, List.of(w), List.of(id));

                assertThat(deferred.get()).as("RCPTs the storm deferred").isGreaterThan(12);
                assertThat(arrivals.perAddress).hasSize(60);
                assertThat(arrivals.perAddress.values()).containsOnly(1);
                assertThat(count(id, "sent")).isEqualTo(60);
                Map<String, Double> adapted = adaptedRates(db.dataSource());
                assertThat(adapted).as("only gmail was slowed down").containsOnlyKeys("domain:gmail");
                assertThat(adapted.get("domain:gmail")).isLessThanOrEqualTo(10.0);
                // The other domain was not held back behind the slowed one: half of it had arrived
                // before half of gmail. (Its last arrival may come close to gmail's last: a run
                // boundary now counts what the run before sent, and gmail sends from a run's first
                // second instead of losing it.)
                List<Long> gmail = arrivals.of("gmail.com");
                List<Long> others = arrivals.of("other.example");
                assertThat(others.get(others.size() / 2)).isLessThan(gmail.get(gmail.size() / 2));
                TaskRun run = w.tasks.recentRuns(SendTask.taskName(id), 20).stream()
                        .filter(r -> r.summary().map(s -> s.has("too_fast_requeued")).orElse(false)).findFirst().orElseThrow();
                assertThat(run.summary().orElseThrow().get("rate_adapted").has("domain:gmail")).isTrue();
                assertThat(run.summary().orElseThrow().get("too_fast_requeued").asLong()).isGreaterThanOrEqualTo(1);
            }
        }
    }

    /** Ticks every worker at each slot, in parallel, jumping to the next slot between, until every campaign completed. */
    static void runUntilCompleted(JumpingClock clock, List<SendingHarness> workers, List<Long> ids) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(workers.size());
        try {
            for (int slot = 0; slot < 20 && !allCompleted(workers.get(0), ids); slot++) {
                List<Future<?>> ticks = new ArrayList<>();
                for (SendingHarness w : workers) {
                    ticks.add(threads.submit(() -> w.scheduler.tick()));
                }
                for (Future<?> t : ticks) {
                    t.get();
                }
                clock.jumpTo(SLOT.plus(INTERVAL.multipliedBy(slot + 1)));
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(allCompleted(workers.get(0), ids)).as("every campaign completed").isTrue();
    }

    private static boolean allCompleted(SendingHarness w, List<Long> ids) throws Exception {
        for (long id : ids) {
            if (w.campaigns.get(id).status() != CampaignStatus.COMPLETED) {
                return false;
            }
        }
        return true;
    }

    static long count(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }

    static Map<String, Double> adaptedRates(javax.sql.DataSource ds) throws Exception {
        Map<String, Double> rates = new java.util.HashMap<>();
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT name, rate FROM adapted_rate");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rates.put(rs.getString(1), rs.getDouble(2));
            }
        }
        return rates;
    }
}
