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
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The database takes a run's marks but refuses its results: a trigger fails every update that
 * records a recipient as sent. The marks commit in a transaction of their own, so without a stop
 * the workers would send on through one mark after another with nothing recorded.
 */
class ResultsRefusedTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int SIZE = 600;
    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    @Test
    void a_run_whose_results_cannot_be_written_sends_no_further_than_the_crash_bound() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .onMessage(cmd -> Reply.of(250, "2.0.0 queued"))
                .start();
             InProcessSender s = new InProcessSender(db.newPool("worker", 6), clock,
                     InProcessSender.smtp(smtp.port(), Duration.ofSeconds(5)), Path.of("templates"),
                     INTERVAL, SendSettingsFixtures.defaults("relay-results-refused", 0), "w1")) {
            long id = s.newCampaign("Results refused", "welcome");
            Fixtures.recipients(db.dataSource(), id, 0, SIZE);
            try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement()) {
                st.execute("""
                        CREATE TRIGGER refuse_sent BEFORE UPDATE ON recipient FOR EACH ROW
                        BEGIN
                          IF NEW.status = 'sent' THEN
                            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'results refused for the test';
                          END IF;
                        END""");
            }
            s.campaigns.start(id);

            s.scheduler.tick();

            Map<String, Long> counts = Fixtures.counts(db.dataSource(), id);
            System.out.printf("[fault] results refused: counts=%s messages=%d%n", counts, smtp.messages().size());
            // The bound of KillNineTest: the connections (4) plus one flush (100).
            assertThat(counts.getOrDefault("sent", 0L)).isZero();
            assertThat(smtp.messages().size()).as("messages sent with no result written").isPositive()
                    .isLessThanOrEqualTo(4 + 100);
            long inFlight = CampaignFixtures.sendingCount(db.dataSource(), id);
            assertThat(inFlight).as("in flight").isPositive().isLessThanOrEqualTo(4 + 100);

            // The database takes results again: the next run finds what the refused run left in
            // flight, makes it unknown, and sends everyone else, each once.
            try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement()) {
                st.execute("DROP TRIGGER refuse_sent");
            }
            for (int i = 0; i < 10 && !"completed".equals(Fixtures.campaignStatus(db.dataSource(), id)); i++) {
                long ms = INTERVAL.toMillis();
                clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / ms + 1) * ms));
                s.scheduler.tick();
            }
            Map<String, Long> after = Fixtures.counts(db.dataSource(), id);
            Map<String, Integer> received = Fixtures.perAddress(smtp.messages());
            System.out.printf("[fault] results refused, then taken: counts=%s messages=%d duplicates=%d%n", after,
                    smtp.messages().size(), received.values().stream().filter(n -> n > 1).count());
            assertThat(Fixtures.campaignStatus(db.dataSource(), id)).isEqualTo("completed");
            assertThat(after.getOrDefault("unknown", 0L)).as("unknown: what the refused run left in flight").isEqualTo(inFlight);
            assertThat(after.getOrDefault("sent", 0L)).isEqualTo(SIZE - inFlight);
            assertThat(received.values()).as("messages per address").allMatch(n -> n == 1);
            assertThat(CampaignFixtures.sendingCount(db.dataSource(), id)).isZero();
        }
    }
}
