package dev.mailrun.metrics;

import dev.mailrun.campaign.CampaignStates;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.send.route.RelayConfigs;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The campaign gauges: recipients by status, campaign status, self-paused, hard-bounce and complaint
 * rate per campaign, the two breakers' thresholds, and the workers that disagree on a relay's settings
 * ({@code mailrun_relay_config_disagreement}, one row per relay and worker while they disagree, its
 * value the number of different settings among the relay's live workers). They are read from the database when a scrape finds the last
 * reading {@link #MAX_AGE} old or older by the clock, so scrapes, however frequent, cost the database
 * at most one reading per period. A reading that fails keeps the previous one (and logs why).
 */
final class CampaignGauges {

    static final Duration MAX_AGE = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(CampaignGauges.class);

    private final CampaignStates states;
    private final Clock clock;
    private final MultiGauge recipients;
    private final MultiGauge status;
    private final MultiGauge selfPaused;
    private final MultiGauge bounceRate;
    private final MultiGauge complaintRate;
    private final MultiGauge relayDisagreement;
    private Instant readAt;   // guarded by this

    CampaignGauges(MeterRegistry registry, CampaignStates states, Clock clock, double bounceThreshold,
                   double complaintThreshold) {
        this.states = states;
        this.clock = clock;
        recipients = MultiGauge.builder("mailrun.recipients").description("Recipients by status").register(registry);
        status = MultiGauge.builder("mailrun.campaign.status")
                .description("1 for the campaign's current status, 0 for the others").register(registry);
        selfPaused = MultiGauge.builder("mailrun.campaign.self.paused")
                .description("1 when mailrun paused the campaign itself").register(registry);
        bounceRate = MultiGauge.builder("mailrun.campaign.hard.bounce.rate")
                .description("Hard bounces over sends (0..1)").register(registry);
        Gauge.builder("mailrun.campaign.hard.bounce.threshold", () -> bounceThreshold)
                .description("bounce.pause-rate: a campaign above it pauses itself").register(registry);
        complaintRate = MultiGauge.builder("mailrun.campaign.complaint.rate")
                .description("Spam complaints over sends (0..1)").register(registry);
        relayDisagreement = MultiGauge.builder("mailrun.relay.config.disagreement")
                .description("Different settings of the relay among its live workers, per relay and worker; absent while they agree")
                .register(registry);
        Gauge.builder("mailrun.campaign.complaint.threshold", () -> complaintThreshold)
                .description("bounce.complaint-pause-rate: a campaign above it pauses itself").register(registry);
    }

    /** Reads the database unless the last reading is younger than {@link #MAX_AGE}. */
    synchronized void refreshIfDue() {
        Instant now = clock.instant();
        if (readAt != null && now.isBefore(readAt.plus(MAX_AGE))) {
            return;
        }
        readAt = now;
        List<CampaignStates.State> read;
        List<RelayConfigs.Disagreement> disagreements;
        try {
            read = states.read();
            disagreements = states.relayDisagreements();
        } catch (SQLException | RuntimeException e) {
            log.warn("Campaign gauges keep their last reading: the database could not be read ({})", e.toString());
            return;
        }
        List<MultiGauge.Row<?>> recipientRows = new ArrayList<>();
        List<MultiGauge.Row<?>> statusRows = new ArrayList<>();
        List<MultiGauge.Row<?>> pausedRows = new ArrayList<>();
        List<MultiGauge.Row<?>> rateRows = new ArrayList<>();
        List<MultiGauge.Row<?>> complaintRows = new ArrayList<>();
        for (CampaignStates.State s : read) {
            Tags campaign = Tags.of("campaign", Long.toString(s.campaignId()));
            for (RecipientStatus st : RecipientStatus.values()) {
                recipientRows.add(MultiGauge.Row.of(campaign.and("status", st.dbValue()), s.counts().get(st)));
            }
            for (CampaignStatus st : CampaignStatus.values()) {
                statusRows.add(MultiGauge.Row.of(campaign.and("status", st.dbValue()), s.status() == st ? 1 : 0));
            }
            pausedRows.add(MultiGauge.Row.of(campaign, s.status() == CampaignStatus.PAUSED && s.selfPaused() ? 1 : 0));
            rateRows.add(MultiGauge.Row.of(campaign, s.bounceRate().rate()));
            complaintRows.add(MultiGauge.Row.of(campaign, s.complaintRate().rate()));
        }
        recipients.register(recipientRows, true);
        status.register(statusRows, true);
        selfPaused.register(pausedRows, true);
        bounceRate.register(rateRows, true);
        complaintRate.register(complaintRows, true);
        List<MultiGauge.Row<?>> disagreementRows = new ArrayList<>();
        for (RelayConfigs.Disagreement d : disagreements) {
            long settings = d.workers().stream().map(w -> w.fingerprint()).distinct().count();
            d.workers().forEach(w -> disagreementRows.add(MultiGauge.Row.of(Tags.of("relay", d.relay(), "worker", w.worker()), settings)));
        }
        relayDisagreement.register(disagreementRows, true);
    }
}
