package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.Sleeper;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run that ends at its deadline while another worker shares its relay keeps its campaign's place
 * among the holders; the campaign's next run goes at once when every other holder joined after the
 * place was kept, and waits for them as before when one did not.
 */
class KeptPlaceTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant SLOT = Instant.parse("2026-11-21T11:00:00Z");

    @Test
    void the_next_run_joins_at_once_when_the_other_holder_counted_the_kept_place_and_waits_when_it_did_not() throws Exception {
        String relay = "relay-kept-place";
        SettableClock clock = SettableClock.stepping(SLOT, Duration.ofMillis(1));
        List<Duration> waits = new CopyOnWriteArrayList<>();
        Timing timing = new Timing(clock, clock::nanoTime, new Sleeper() {
            @Override
            public void sleepUntil(Instant wakeAt) {
                waits.add(Duration.between(clock.peek(), wakeAt));
                if (wakeAt.isAfter(clock.peek())) {
                    clock.set(wakeAt);
                }
            }

            @Override
            public void wakeUp() {
            }
        });
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            TemplateLoader templates = new TemplateLoader(Path.of("templates"));
            SmtpSettings smtpSettings = SmtpSettings.of("127.0.0.1", smtp.port(), TlsMode.NONE, "mailrun.test")
                    .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)).withConnections(2);
            SendTask task = new SendTask(SendDependenciesFixtures.oneRelay(db.dataSource(), templates, smtpSettings,
                    Secret.of("message-id-key-for-tests-0123456789"), new FixedLinks(),
                    SendSettingsFixtures.defaults(relay, 1000), () -> new Random(42), timing));
            TaskStore tasks = new TaskStore(db.dataSource());
            Campaigns campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            try (Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task),
                    SchedulerConfig.defaults("w1"), clock)) {
                long id = campaigns.create(new NewCampaign("Kept place", "welcome", "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                CampaignFixtures.recipients(db.dataSource(), id, 50_000);
                campaigns.start(id);
                String place = RelayShareTable.placeOf(id);

                // Another worker's run shares the relay: this run joins, waits for it once, and runs out of time.
                joinAs("worker-2-run-1", relay);
                scheduler.tick();
                assertThat(campaigns.get(id).status()).isEqualTo(CampaignStatus.RUNNING);
                assertThat(waits).hasSize(1);
                assertThat(holders(relay)).containsExactlyInAnyOrder("worker-2-run-1", place);

                // The other worker's next run joins after the place was kept, and counts it.
                leave("worker-2-run-1", relay);
                joinAs("worker-2-run-2", relay);
                joinedAfterThePlace("worker-2-run-2", place, 1);
                clock.set(SLOT.plus(INTERVAL));
                scheduler.tick();
                assertThat(waits).as("the second run went at once").hasSize(1);
                assertThat(holders(relay)).containsExactlyInAnyOrder("worker-2-run-2", place);

                // That run stays, and joined before the place kept now: the next run waits for it.
                joinedAfterThePlace("worker-2-run-2", place, -1);
                clock.set(SLOT.plus(INTERVAL.multipliedBy(2)));
                scheduler.tick();
                assertThat(waits).as("the third run waited for a holder that joined before its place").hasSize(2);
            }
        }
    }

    private static void joinAs(String holder, String relay) throws SQLException {
        Transactions.inTransaction(db.dataSource(), c -> new RelayShareTable().renew(c, relay, holder, Duration.ofMinutes(1)));
    }

    private static void leave(String holder, String relay) throws SQLException {
        Transactions.inTransaction(db.dataSource(), c -> {
            new RelayShareTable().releaseAll(c, List.of(relay), holder);
            return null;
        });
    }

    /**
     * Sets when {@code holder} joined to {@code seconds} after the place was kept (before, when
     * negative): the database clock's milliseconds cannot tell statements run one after the other apart.
     */
    private static void joinedAfterThePlace(String holder, String place, int seconds) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE relay_share SET joined_at = (SELECT t.j FROM (SELECT MAX(joined_at) AS j FROM relay_share WHERE holder = ?) t)"
                        + " + INTERVAL ? SECOND WHERE holder = ?")) {
            ps.setString(1, place);
            ps.setInt(2, seconds);
            ps.setString(3, holder);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    private static List<String> holders(String relay) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT holder FROM relay_share WHERE relay = ? AND expires_at >= UTC_TIMESTAMP(3)")) {
            ps.setString(1, relay);
            List<String> out = new java.util.ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }
}
