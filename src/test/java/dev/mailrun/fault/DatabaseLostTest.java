package dev.mailrun.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The database goes away in the middle of a run: for two seconds every connection to the campaign's
 * database is killed ({@code KILL <id>} from another connection) as soon as it appears.
 */
class DatabaseLostTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final int SIZE = 600;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    @Test
    void a_run_that_loses_its_database_fails_and_a_later_run_resumes_without_losing_or_repeating_anyone() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        AtomicLong kills = new AtomicLong();
        List<Thread> outage = new ArrayList<>();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .onMessage(cmd -> {
                    if (accepted.incrementAndGet() == 150) {
                        Thread t = new Thread(() -> killEverythingFor(Duration.ofSeconds(2), kills), "db-outage");
                        t.start();
                        outage.add(t);
                    }
                    return Reply.of(250, "2.0.0 queued").after(Duration.ofMillis(1));
                })
                .start();
             InProcessSender s = new InProcessSender(db.newPool("worker", 6), clock,
                     InProcessSender.smtp(smtp.port(), Duration.ofSeconds(5)), Path.of("templates"), INTERVAL,
                     SendSettingsFixtures.defaults("relay-db-lost", 0), "w1")) {
            long id = s.newCampaign("Database lost", "welcome");
            Fixtures.recipients(db.dataSource(), id, 0, SIZE);
            s.campaigns.start(id);

            var first = s.scheduler.tick();
            for (Thread t : outage) {
                t.join();
            }
            try (var check = db.newPool("check", 2)) {
                long inFlight = CampaignFixtures.sendingCount(check, id);
                int stillHeld = Fixtures.expireLeases(check);
                long unknownAfterResume;
                for (int i = 0; i < 10 && !"completed".equals(Fixtures.campaignStatus(check, id)); i++) {
                    long ms = INTERVAL.toMillis();
                    clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / ms + 1) * ms));
                    s.scheduler.tick();
                }
                Map<String, Long> counts = Fixtures.counts(check, id);
                unknownAfterResume = counts.getOrDefault("unknown", 0L);
                Map<String, Integer> received = Fixtures.perAddress(smtp.messages());
                List<String> outcomes = Fixtures.finishedRuns(check).stream().map(Fixtures.RunRow::outcome).toList();
                System.out.printf("[fault] database lost: firstTick=%s killedConnections=%d inFlightAfterOutage=%d "
                                + "leaseStillHeld=%d runOutcomes=%s counts=%s messages=%d duplicates=%d%n",
                        first.entries(), kills.get(), inFlight, stillHeld, outcomes, counts, smtp.messages().size(),
                        received.values().stream().filter(n -> n > 1).count());

                assertThat(kills.get()).as("connections killed").isPositive();
                // Usually the run fails when its statements hit the killed connections; now and then
                // the pool hands it fresh connections between two statements and it rides the outage
                // out. Either way what must hold is below: nobody lost, nobody mailed twice.
                assertThat(outcomes.get(0)).as("the run that lost its database").isIn("failed", "abandoned", "succeeded");
                assertThat(Fixtures.campaignStatus(check, id)).isEqualTo("completed");
                assertThat(counts.keySet()).isSubsetOf("sent", "unknown");
                assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(SIZE);
                assertThat(received.values()).as("messages per address").allMatch(n -> n == 1);
                assertThat(unknownAfterResume).as("unknown").isEqualTo(inFlight).isLessThanOrEqualTo(4 + 100);
                var progress = Fixtures.progress(check, id);
                assertThat(progress.path("sent").asLong()).as("progress.sent").isEqualTo(counts.getOrDefault("sent", 0L));
            }
        }
    }

    /** Kills every other connection to this test's database, again and again, for {@code length}. */
    private static void killEverythingFor(Duration length, AtomicLong kills) {
        long end = System.nanoTime() + length.toNanos();
        try (Connection admin = DriverManager.getConnection(db.url(), db.user(), db.password());
             Statement st = admin.createStatement();
             PreparedStatement list = admin.prepareStatement(
                     "SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()")) {
            list.setString(1, db.databaseName());
            while (System.nanoTime() < end) {
                List<Long> ids = new ArrayList<>();
                try (ResultSet rs = list.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
                for (long connection : ids) {
                    try {
                        st.execute("KILL " + connection);
                        kills.incrementAndGet();
                    } catch (java.sql.SQLException gone) {
                        // it closed by itself in between
                    }
                }
                Thread.sleep(5);
            }
        } catch (Exception e) {
            throw new IllegalStateException("outage thread failed", e);
        }
    }
}
