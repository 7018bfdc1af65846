package dev.mailrun.campaign;

import dev.mailrun.campaign.model.BounceRate;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.ComplaintRate;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.send.route.RelayConfigs;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The state of every campaign whose numbers can still move — not completed or cancelled, or ended
 * within the last day — read in one connection: what the campaign gauges show.
 */
public final class CampaignStates {

    /** How long a campaign that ended is still read. */
    static final Duration KEPT_AFTER_END = Duration.ofDays(1);

    /** One campaign: its status, whether mailrun paused it itself, its recipients by status, its bounces and complaints. */
    public record State(long campaignId, CampaignStatus status, boolean selfPaused, Map<RecipientStatus, Long> counts,
                        BounceRate bounceRate, ComplaintRate complaintRate) {

        public State {
            counts = Map.copyOf(counts);
        }
    }

    private final DataSource dataSource;
    private final Clock clock;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientCounts recipients = new RecipientCounts();
    private final InFlightTable inFlight = new InFlightTable();

    public CampaignStates(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** The relays whose live workers hold different settings of them ({@link RelayConfigs}), each with its workers. */
    public List<RelayConfigs.Disagreement> relayDisagreements() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return new RelayConfigs().disagreements(c, clock.instant());
        }
    }

    public List<State> read() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            List<State> states = new ArrayList<>();
            for (CampaignTable.StatusRow row : campaigns.statusesSince(c, clock.instant().minus(KEPT_AFTER_END))) {
                states.add(new State(row.id(), row.status(), row.selfPaused(), recipients.counts(c, row.id(), inFlight.ids(c, row.id())),
                        recipients.hardBounceRate(c, row.id()), recipients.complaintRate(c, row.id())));
            }
            return states;
        }
    }
}
