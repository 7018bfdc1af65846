package dev.mailrun.campaign.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.CampaignStates;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.RelayConfigs;
import dev.mailrun.campaign.send.route.RelayFingerprint;
import dev.mailrun.campaign.send.route.RelayHealth;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two workers that give one relay name different settings — one of them a dead port: each keeps its
 * own down mark (neither clears the other's), and status, read with the healthy worker's settings,
 * names both workers and their settings instead of showing nothing held back. Real database, the
 * relay health a sending run keeps, on an injected clock.
 */
class RelayDisagreementTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
    private static final SmtpSettings HEALTHY = SmtpSettings.of("127.0.0.1", 2525, TlsMode.NONE, "mailrun.test");
    private static final SmtpSettings DEAD = SmtpSettings.of("127.0.0.1", 1, TlsMode.NONE, "mailrun.test");

    private final SettableClock clock = new SettableClock(NOW);
    private final TaskStore tasks = new TaskStore(db.dataSource());
    private final Campaigns campaigns = new Campaigns(db.dataSource(), tasks, new TemplateLoader(Path.of("templates")), clock,
            Duration.ofSeconds(10));

    @Test
    void workers_that_disagree_on_a_relay_are_named_by_status_and_keep_their_own_down_marks() throws Exception {
        Relays healthy = Relays.single("ka", HEALTHY.withRate(8));
        Relays dead = Relays.single("ka", DEAD.withRate(8));
        RelayConfigs configs = new RelayConfigs();
        configs.record(db.dataSource(), "worker-a", dead, NOW);
        configs.record(db.dataSource(), "worker-b", healthy, NOW);
        long id = campaigns.create(new NewCampaign("Split", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse("ka")));
        CampaignFixtures.recipients(db.dataSource(), id, 100);
        assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);

        RelayHealth onA = new RelayHealth(db.dataSource(), clock, "run-a", Map.of("ka", RelayFingerprint.of(DEAD)),
                RelayHealth.Listener.NONE);
        RelayHealth onB = new RelayHealth(db.dataSource(), clock, "run-b", Map.of("ka", RelayFingerprint.of(HEALTHY)),
                RelayHealth.Listener.NONE);
        onA.markDown("ka", "cannot connect to 127.0.0.1:1: Connection refused");
        onB.refresh();
        onA.refresh();

        assertThat(onB.up("ka")).as("worker b's relay is not the dead port").isTrue();
        assertThat(onA.up("ka")).as("worker b's refresh left worker a's mark alone").isFalse();
        // Worker b sends well and never marks; a second read by b still leaves a's back-off.
        clock.set(NOW.plusSeconds(5));
        onB.refresh();
        onA.refresh();
        assertThat(onA.downUntil("ka")).hasValue(NOW.plusSeconds(30));

        CampaignReport r = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(), healthy)
                .report(id);
        assertThat(r.heldBackBy()).containsExactly("relay ka: workers disagree on its settings — "
                + "worker-a: 127.0.0.1:1 none, user (none), 8/s; worker-b: 127.0.0.1:2525 none, user (none), 8/s");
        assertThat(new CampaignStates(db.dataSource(), clock).relayDisagreements())
                .extracting(RelayConfigs.Disagreement::relay).containsOnlyOnce("ka");

        // Worker a stopped renewing: two minutes on it is no longer live, and nobody disagrees.
        clock.set(NOW.plus(RelayConfigs.LIVE).plusSeconds(1));
        configs.record(db.dataSource(), "worker-b", healthy, clock.instant());
        assertThat(new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(), healthy)
                .report(id).heldBackBy()).isEmpty();
        assertThat(new CampaignStates(db.dataSource(), clock).relayDisagreements())
                .extracting(RelayConfigs.Disagreement::relay).doesNotContain("ka");
    }

    @Test
    void the_settings_recorded_never_carry_the_password_and_a_changed_rate_is_a_disagreement() throws Exception {
        Relays withAuth = new Relays(Map.of("kb", new Relay("kb", HEALTHY.withAuth("mailer",
                dev.mailrun.mail.Secret.of("s3cret-pass")).withRate(8))), RelayRoute.of("kb"));
        Relays fasterRate = new Relays(Map.of("kb", new Relay("kb", HEALTHY.withAuth("mailer",
                dev.mailrun.mail.Secret.of("s3cret-pass")).withRate(16))), RelayRoute.of("kb"));
        RelayConfigs configs = new RelayConfigs();
        configs.record(db.dataSource(), "worker-c", withAuth, NOW);
        configs.record(db.dataSource(), "worker-d", fasterRate, NOW);

        var found = new CampaignStates(db.dataSource(), clock).relayDisagreements();

        assertThat(found).filteredOn(d -> d.relay().equals("kb")).singleElement().satisfies(d -> {
            assertThat(d.line()).contains("worker-c: 127.0.0.1:2525 none, user mailer, 8/s")
                    .contains("worker-d: 127.0.0.1:2525 none, user mailer, 16/s").doesNotContain("s3cret");
            assertThat(d.workers()).allSatisfy(w -> assertThat(w.fingerprint()).hasSize(64).doesNotContain("s3cret"));
        });
    }
}
