package dev.mailrun.campaign.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.SendWindows;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.RelayFingerprint;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.DailyCountTable;
import dev.mailrun.campaign.store.RelayStateTable;
import dev.mailrun.db.SqlTime;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.StatusCounts;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import dev.mailrun.campaign.store.RelayConnectionTable;
import dev.mailrun.campaign.store.RelayShareTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What {@code campaign status} says holds a campaign back, the rate it is configured for, the
 * current rate and the ETA: real campaigns in a real database, relay states, daily counts and sent
 * rows as the sending runs leave them, on an injected clock.
 */
class StatusHoldsTest {

    /** How the tests' relays are configured: one address for all of them. */
    private static final SmtpSettings SMTP = SmtpSettings.of("127.0.0.1", 2525, TlsMode.NONE, "mailrun.test");

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    // Monday 23 November 2026.
    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

    private final SettableClock clock = new SettableClock(NOW);
    private final TaskStore tasks = new TaskStore(db.dataSource());
    private final Campaigns campaigns = new Campaigns(db.dataSource(), tasks, new TemplateLoader(Path.of("templates")), clock,
            Duration.ofSeconds(10));

    @Test
    void the_configured_rate_is_the_routes_not_its_first_relays_and_a_lower_campaign_rate_wins() throws Exception {
        Relays relays = relays(Map.of("ra", 7.0, "rb", 3.0), "ra,rb");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings(), relays);
        long split = running("Split", "rb:30,ra:70", Optional.empty(), 10);
        long capped = running("Capped", "rb:30,ra:70", Optional.of(4.0), 10);
        long standby = running("Standby", "rb,ra", Optional.empty(), 10);

        assertThat(reports.report(split).configuredRate()).isEqualTo(10.0);
        assertThat(reports.report(split).eta().from(NOW)).as("10 at 10/s").hasValue(Duration.ofSeconds(1));
        assertThat(reports.report(capped).configuredRate()).isEqualTo(4.0);
        assertThat(reports.report(standby).configuredRate()).as("ra only stands in for rb").isEqualTo(3.0);
        assertThat(CampaignReportJson.of(reports.report(split))).contains("\"configured\" : 10.0");

        // ra down: rb takes its share, at rb's rate.
        markDown("ra", NOW.plusSeconds(30), "cannot be reached: connection refused");
        assertThat(reports.report(split).configuredRate()).isEqualTo(3.0);
        assertThat(reports.report(split).heldBackBy())
                .containsExactly("relay ra down until 2026-11-23T10:00:30Z (cannot be reached: connection refused)");
    }

    @Test
    void a_relay_marked_down_at_an_address_it_no_longer_has_shows_up_without_the_old_reason() throws Exception {
        Relays relays = relays(Map.of("xa", 7.0, "xb", 3.0), "xa,xb");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings(), relays);
        long split = running("Moved", "xb:30,xa:70", Optional.empty(), 10);
        String before = RelayFingerprint.of(SmtpSettings.of("127.0.0.1", 2541, TlsMode.NONE, "mailrun.test"));
        markDown("xa", NOW.plusSeconds(30), "cannot connect to 127.0.0.1:2541: Connection refused", before);

        CampaignReport r = reports.report(split);

        assertThat(r.heldBackBy()).isEmpty();
        assertThat(r.configuredRate()).isEqualTo(10.0);
        assertThat(r.relays()).filteredOn(l -> l.relay().equals("xa")).singleElement()
                .satisfies(l -> assertThat(l.downUntil()).isEmpty());
    }

    @Test
    void every_relay_down_is_named_with_until_and_why_and_the_eta_starts_when_the_first_is_probed() throws Exception {
        Relays relays = relays(Map.of("da", 5.0, "db", 5.0), "da,db");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings(), relays);
        long id = running("Down", "da:50,db:50", Optional.empty(), 100);
        markDown("da", NOW.plusSeconds(60), "cannot be reached: connection refused");
        markDown("db", NOW.plusSeconds(240), "AUTH refused: 535 5.7.8 bad credentials");

        CampaignReport r = reports.report(id);

        assertThat(r.heldBackBy()).containsExactly(
                "relay da down until 2026-11-23T10:01:00Z (cannot be reached: connection refused)",
                "relay db down until 2026-11-23T10:04:00Z (AUTH refused: 535 5.7.8 bad credentials)");
        assertThat(r.eta().after()).hasValue(NOW.plusSeconds(60));
        assertThat(r.eta().from(NOW)).as("60 s of back-off, then 100 at 10/s").hasValue(Duration.ofSeconds(70));
        assertThat(r.eta().text(NOW, Duration::toString)).isEqualTo("PT1M10S (sending resumes 2026-11-23T10:01:00Z)");
        assertThat(CampaignReportJson.of(r)).contains("\"eta_seconds\" : 70").contains("\"eta_after\" : \"2026-11-23T10:01:00Z\"");

        // Both back-offs over, no probe yet: still named, sending may start now.
        clock.set(NOW.plusSeconds(300));
        assertThat(reports.report(id).heldBackBy()).containsExactly(
                "relay da down, its back-off over since 2026-11-23T10:01:00Z: the next run probes it"
                        + " (cannot be reached: connection refused)",
                "relay db down, its back-off over since 2026-11-23T10:04:00Z: the next run probes it"
                        + " (AUTH refused: 535 5.7.8 bad credentials)");
        assertThat(reports.report(id).eta().after()).isEmpty();
    }

    @Test
    void a_daily_cap_reached_holds_the_campaign_to_the_next_day_and_the_eta_walks_the_days() throws Exception {
        Relays relays = relays(Map.of("ca", 100.0), "ca");
        DailyCap cap = new DailyCap(OptionalLong.of(100), List.of(), Optional.empty(), Optional.empty(), ZoneId.of("UTC"));
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.builder().dailyCap(cap).build(), relays);
        long id = running("Capped day", "ca", Optional.empty(), 250);
        Transactions.inTransaction(db.dataSource(), c -> {
            DailyCountTable counts = new DailyCountTable();
            counts.lock(c, "ca", LocalDate.parse("2026-11-23"));
            counts.add(c, "ca", LocalDate.parse("2026-11-23"), 100);
            return null;
        });

        CampaignReport r = reports.report(id);

        assertThat(r.heldBackBy()).containsExactly(
                "daily cap of relay ca reached (100 of 100 on 2026-11-23 UTC, resets at 2026-11-24T00:00:00Z)");
        assertThat(r.eta().after()).hasValue(Instant.parse("2026-11-24T00:00:00Z"));
        // 100 on the 24th, 100 on the 25th, the last 50 at 100/s on the 26th.
        assertThat(r.eta().done()).hasValue(Instant.parse("2026-11-26T00:00:00.500Z"));
    }

    @Test
    void a_closed_window_holds_the_campaign_until_it_opens_and_the_eta_counts_only_open_time() throws Exception {
        Relays relays = relays(Map.of("wa", 1.0), "wa");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings(), relays);
        long id = campaigns.create(new NewCampaign("Windowed", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(SendWindows.parse("Mon-Fri 08:00-09:00 UTC")), Optional.empty()), Optional.of(RelayRoute.parse("wa")));
        CampaignFixtures.recipients(db.dataSource(), id, 5_400);
        campaigns.start(id);

        CampaignReport r = reports.report(id);

        assertThat(r.heldBackBy()).singleElement().asString().startsWith("window closed until 2026-11-24T08:00:00Z");
        assertThat(r.eta().after()).hasValue(Instant.parse("2026-11-24T08:00:00Z"));
        // 3,600 on Tuesday's hour at 1/s, the other 1,800 on Wednesday from 08:00.
        assertThat(r.eta().done()).hasValue(Instant.parse("2026-11-25T08:30:00Z"));
    }

    @Test
    void a_paced_domain_group_makes_the_eta_as_long_as_the_group_needs() throws Exception {
        Relays relays = relays(Map.of("pa", 100.0), "pa");
        SendSettings settings = SendSettingsFixtures.builder().domainGroups(new DomainGroups(List.of(
                new DomainGroup("slowmail", List.of("slowmail.example"), 1)))).build();
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings, relays);
        long id = campaigns.create(new NewCampaign("Paced", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse("pa")));
        CampaignFixtures.recipients(db.dataSource(), id, 40);
        Transactions.inTransaction(db.dataSource(), c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO recipient (campaign_id, email, name, status, updated_at)
                    VALUES (?, ?, 'Slow', 'pending', UTC_TIMESTAMP(3))""")) {
                for (int i = 0; i < 20; i++) {
                    ps.setLong(1, id);
                    ps.setString(2, "s" + i + "@slowmail.example");
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            StatusCounts.rebuild(c, id);
            return null;
        });
        campaigns.start(id);

        CampaignReport r = reports.report(id);

        assertThat(r.heldBackBy()).containsExactly("domain slowmail capped at 1/s");
        assertThat(r.configuredRate()).isEqualTo(100.0);
        assertThat(r.eta().from(NOW)).as("20 at slowmail.example at 1/s, not 60 at 100/s").hasValue(Duration.ofSeconds(20));
    }

    @Test
    void connections_that_cannot_reach_the_relays_rate_hold_a_running_campaign_back() throws Exception {
        Relays relays = relays(Map.of("far", 50.0), "far");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(), relays);
        long id = campaigns.create(new NewCampaign("Far", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse("far")));
        CampaignFixtures.recipients(db.dataSource(), id, 30);
        campaigns.start(id);
        Transactions.inTransaction(db.dataSource(), c -> {
            // A run sending through the relay reported its pool at its last renewal: 4 open at 450 ms.
            new RelayShareTable().renew(c, "far", "run-far", Duration.ofSeconds(60));
            new RelayConnectionTable().report(c, "far", "run-far", new RelayConnectionTable.PoolState(4, 24,
                    Optional.of(30), 32, Optional.of(450), 50));
            return null;
        });

        assertThat(reports.report(id).heldBackBy())
                .containsExactly("connections — 4 at 450 ms per message reach 8.9/s of 50/s; growing to 24");

        Transactions.inTransaction(db.dataSource(), c -> {
            new RelayConnectionTable().report(c, "far", "run-far", new RelayConnectionTable.PoolState(30, 30,
                    Optional.of(30), 32, Optional.of(450), 50));
            return null;
        });
        assertThat(reports.report(id).heldBackBy()).as("enough connections: nothing to say").isEmpty();
        Transactions.inTransaction(db.dataSource(), c -> {
            new RelayShareTable().releaseAll(c, List.of("far"), "run-far");
            return null;
        });
    }

    @Test
    void a_draft_and_a_completed_campaign_have_no_eta_and_current_is_the_last_minutes_rate() throws Exception {
        Relays relays = relays(Map.of("fa", 20.0), "fa");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings(), relays);
        long draft = campaigns.create(new NewCampaign("Draft", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse("fa")));
        CampaignFixtures.recipients(db.dataSource(), draft, 10);
        assertThat(reports.report(draft).eta()).isEqualTo(Eta.NONE);
        assertThat(reports.report(draft).eta().text(NOW, Duration::toString)).isEqualTo("-");
        assertThat(CampaignReportJson.of(reports.report(draft))).contains("\"eta_seconds\" : null");

        long id = running("Sending", "fa", Optional.empty(), 200);
        // 30 sent in the last minute, 100 five minutes before: current is 30 over 60 s.
        sent(id, 0, 100, NOW.minusSeconds(300));
        sent(id, 100, 30, NOW.minusSeconds(30));
        CampaignReport r = reports.report(id);
        assertThat(r.currentRate()).hasValue(0.5);
        assertThat(r.eta().from(NOW)).as("70 left at 20/s").hasValue(Duration.ofMillis(3_500));

        // Everyone sent, the campaign completed long ago: no ETA and no current rate.
        sent(id, 130, 70, NOW.minusSeconds(50));
        Transactions.inTransaction(db.dataSource(), c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE campaign SET status = 'completed' WHERE id = ?")) {
                ps.setLong(1, id);
                ps.executeUpdate();
            }
            return null;
        });
        clock.set(NOW.plus(Duration.ofMinutes(40)));
        CampaignReport done = reports.report(id);
        assertThat(done.campaign().status()).isEqualTo(CampaignStatus.COMPLETED);
        assertThat(done.eta()).isEqualTo(Eta.NONE);
        assertThat(done.currentRate()).isEmpty();
        assertThat(CampaignReportJson.of(done)).contains("\"current\" : null");
    }

    @Test
    void a_missing_unsubscribe_secret_holds_every_campaign_with_someone_left_and_the_eta_waits_for_it() throws Exception {
        Relays relays = relays(Map.of("ma", 20.0), "ma");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings(), relays)
                .withMissingSettings(List.of("unsubscribe.secret"));
        long id = running("No secret", "ma", Optional.empty(), 10);

        CampaignReport r = reports.report(id);

        assertThat(r.heldBackBy()).containsExactly("unsubscribe.secret is not set: no worker sends without it");
        assertThat(r.eta().waitsFor()).hasValue("unsubscribe.secret is set");
        assertThat(r.eta().text(NOW, Duration::toString)).isEqualTo("after unsubscribe.secret is set");
    }

    @Test
    void a_paused_campaign_waits_for_its_resumption_and_a_scheduled_one_for_its_start_time() throws Exception {
        Relays relays = relays(Map.of("sa", 10.0), "sa");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings(), relays);
        long paused = running("Paused", "sa", Optional.empty(), 10);
        campaigns.pause(paused, "paused by operator");
        assertThat(reports.report(paused).eta().text(NOW, Duration::toString)).isEqualTo("after resume");

        long scheduled = campaigns.create(new NewCampaign("Later", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of(NOW.plusSeconds(3_600)), Optional.empty()),
                Optional.of(RelayRoute.parse("sa")));
        CampaignFixtures.recipients(db.dataSource(), scheduled, 100);
        assertThat(campaigns.start(scheduled)).isEqualTo(CampaignStatus.SCHEDULED);
        CampaignReport r = reports.report(scheduled);
        assertThat(r.heldBackBy()).containsExactly("start time 2026-11-23T11:00:00Z");
        assertThat(r.eta().after()).hasValue(NOW.plusSeconds(3_600));
        assertThat(r.eta().done()).hasValue(NOW.plusSeconds(3_610));
    }

    private long running(String name, String route, Optional<Double> rate, int recipients) throws Exception {
        long id = campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), rate), Optional.of(RelayRoute.parse(route)));
        CampaignFixtures.recipients(db.dataSource(), id, recipients);
        assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);
        return id;
    }

    private static SendSettings settings() {
        return SendSettingsFixtures.defaults();
    }

    static Relays relays(Map<String, Double> rates, String defaultRoute) {
        Map<String, Relay> byName = new LinkedHashMap<>();
        rates.forEach((name, rate) -> byName.put(name,
                new Relay(name, SMTP.withRate(rate))));
        return new Relays(byName, RelayRoute.parse(defaultRoute));
    }

    /** Marked down by a run configured as the tests' relays are. */
    private static void markDown(String relay, Instant until, String reason) throws Exception {
        markDown(relay, until, reason, RelayFingerprint.of(SMTP));
    }

    private static void markDown(String relay, Instant until, String reason, String config) throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> {
            RelayStateTable table = new RelayStateTable();
            table.lock(c, relay, config, NOW);
            table.markDown(c, relay, until, 1, reason, config, NOW);
            return null;
        });
    }

    /** Recipients r{from} … r{from+n-1} of the campaign marked sent at {@code at}, as a run records them. */
    static void sent(long campaignId, int from, int n, Instant at) throws Exception {
        sent(db, campaignId, from, n, at);
    }

    static void sent(TestDatabase db, long campaignId, int from, int n, Instant at) throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE recipient SET status = 'sent', attempts = 1, sent_at = ?, updated_at = ?
                    WHERE campaign_id = ? AND email = ?""")) {
                for (int i = from; i < from + n; i++) {
                    SqlTime.set(ps, 1, at);
                    SqlTime.set(ps, 2, at);
                    ps.setLong(3, campaignId);
                    ps.setString(4, "r" + i + "@list.example");
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            StatusCounts.rebuild(c, campaignId);
            return null;
        });
    }
}
