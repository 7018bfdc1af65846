package dev.mailrun.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.FailureFilter;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.variant.AbForm;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rules that depend on the configuration, or on an operator's text, are the campaign service's own:
 * whoever calls it — the command line, the API, the console — gets the same refusal without checking
 * anything first. The real service on the real database.
 */
class CampaignSetupRulesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final CampaignSetup READY = new CampaignSetup(List.of(), true, false);
    private static final Relays RELAYS = Relays.single("default",
            SmtpSettings.of("127.0.0.1", 2525, TlsMode.NONE, "mailrun.test").withRate(10));

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));
    private final TaskStore tasks = new TaskStore(db.dataSource());

    private Campaigns campaigns(CampaignSetup setup) {
        return new Campaigns(db.dataSource(), tasks, new TemplateLoader(Path.of("templates")), clock, INTERVAL, setup);
    }

    private static NewCampaign campaign(String name) {
        return new NewCampaign(name, "welcome", "news@sender.example", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    @Test
    void start_is_refused_while_a_setting_sending_needs_is_missing_and_the_campaign_stays_a_draft() throws Exception {
        Campaigns unconfigured = campaigns(new CampaignSetup(List.of("unsubscribe.secret", "unsubscribe.base-url"), true, false));
        long id = unconfigured.create(campaign("No secret"));
        CampaignFixtures.recipients(db.dataSource(), id, 3);

        assertThatThrownBy(() -> unconfigured.start(id)).isInstanceOf(CampaignException.class)
                .hasMessage("campaign " + id + " cannot start: unsubscribe.secret and unsubscribe.base-url are not set,"
                        + " and no worker sends without them");
        assertThatThrownBy(() -> campaigns(new CampaignSetup(List.of("unsubscribe.base-url"), true, false)).start(id))
                .hasMessage("campaign " + id + " cannot start: unsubscribe.base-url is not set, and no worker sends without it");
        assertThat(unconfigured.get(id).status()).isEqualTo(CampaignStatus.DRAFT);
        assertThat(tasks.find(SendTask.taskName(id))).isEmpty();

        assertThat(campaigns(READY).start(id)).isEqualTo(CampaignStatus.RUNNING);
    }

    @Test
    void a_tracked_campaign_is_refused_while_tracking_is_off_naming_the_field_with_every_other_problem() throws Exception {
        Campaigns untracked = campaigns(new CampaignSetup(List.of(), false, false));
        int before = untracked.list().size();
        InvalidFields.Problem trackingOff = new InvalidFields.Problem("track",
                "tracking is not enabled (tracking.enabled=true and tracking.base-url)");

        assertThatThrownBy(() -> untracked.create(campaign("Tracked"), Optional.empty(), List.of(),
                Optional.of(new TrackingMode(true, true)), Optional.empty()))
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(trackingOff));
        CampaignForm badRate = new CampaignForm("Tracked", "welcome", Optional.of("news@sender.example"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(-1.0), List.of(), Optional.empty(),
                Optional.empty(), List.of());
        assertThatThrownBy(() -> untracked.create(badRate, RELAYS, AbForm.none(), List.of(), Optional.of(new TrackingMode(false, true))))
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).extracting(InvalidFields.Problem::field)
                        .containsExactly("rate", "track"));
        assertThat(untracked.problems(badRate, RELAYS, AbForm.none(), Optional.of(new TrackingMode(false, true))))
                .contains(trackingOff);
        assertThat(untracked.list()).hasSize(before);

        // Untracked, the same service creates it; tracked, a service with tracking on does.
        assertThat(untracked.create(campaign("Untracked"), Optional.empty(), List.of(), Optional.empty(), Optional.empty())).isPositive();
        assertThat(campaigns(READY).create(campaign("Tracked"), Optional.empty(), List.of(),
                Optional.of(new TrackingMode(true, true)), Optional.empty())).isPositive();
    }

    @Test
    void the_requeue_filter_is_read_and_bounded_by_the_service_whatever_made_it() throws Exception {
        Campaigns service = campaigns(READY);
        long id = service.create(campaign("Requeue limits"));
        String longest = "x".repeat(FailureFilter.MAX_REASON);

        assertThatThrownBy(() -> service.requeueFailed(id, Optional.of("6xx"), Optional.of(longest + "x")))
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(
                        new InvalidFields.Problem("code", "must be 4xx, 5xx or a reply code such as 451, got '6xx'"),
                        new InvalidFields.Problem("reason", "is longer than 200 characters")));
        assertThatThrownBy(() -> service.requeueFailed(id, Optional.empty(), Optional.of("mailbox\nfull")))
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(
                        new InvalidFields.Problem("reason", "must be one line of text without control characters")));
        assertThatThrownBy(() -> service.requeueFailed(id, Optional.of("4xx"), Optional.of("   ")))
                .hasMessage("reason: must not be empty");
        // A filter made as a value is held to the same limits as one read from text.
        assertThatThrownBy(() -> FailureFilter.all().withErrorContaining(longest + "x"))
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(
                        new InvalidFields.Problem("reason", "is longer than 200 characters")));
        assertThatThrownBy(() -> FailureFilter.ofCode("5xx").withErrorContaining("a\u0000b")).isInstanceOf(InvalidFields.class);

        Campaigns.RequeueResult none = service.requeueFailed(id, Optional.of(" 451 "), Optional.of(" " + longest + " "));
        assertThat(none.requeued()).isZero();
        assertThat(FailureFilter.parse(Optional.of(" 451 "), Optional.of(" " + longest + " ")))
                .isEqualTo(FailureFilter.ofCode("451").withErrorContaining(longest));
    }
}
