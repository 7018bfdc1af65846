package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.policy.SendCalendar;
import dev.mailrun.campaign.send.route.RelayConfigs;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What holds a campaign back now and when it is expected to be done, for {@code campaign status}:
 * <ul>
 *   <li>the calendar: expired, the send window closed, relays at their daily cap ({@link SendCalendar});</li>
 *   <li>its start time, while it waits for it;</li>
 *   <li>each relay of its route that is down, until when and why ({@link RouteNow});</li>
 *   <li>workers that disagree on the settings of a relay of its route ({@link RelayConfigs}): each sends
 *       its share of the relay's rate its own way, so one pointing at a dead address holds its share back;</li>
 *   <li>a setting no worker sends without ({@code unsubscribe.secret}, {@code unsubscribe.base-url});</li>
 *   <li>the pace: capped or adapted domain groups and adapted relay rates ({@link HeldBack}).</li>
 * </ul>
 * The ETA takes each into account ({@link EtaEstimate}); a draft, a finished campaign and one with
 * nobody left have none, a paused one waits for its resumption, one missing a setting for that setting.
 */
final class CampaignOutlook {

    /**
     * @param heldBackBy  every hold but the connections
     * @param connections while it runs, each relay of its route whose connections cannot reach its rate now
     *                    ({@link HeldBack#connections}): apart, since a minute under the rate names the
     *                    connections itself when they are what held it back ({@link UnderRate})
     * @param configured  the route's configured rate over the relays that take traffic now ({@link RouteNow.View#configured})
     * @param allUp       the route's configured rate with every relay up
     */
    record Result(List<String> heldBackBy, List<String> connections, double configured, double allUp, Eta eta) {}

    private final SendSettings settings;
    private final SendCalendar calendar;
    private final RouteNow routes;
    private final HeldBack pace;
    private final List<String> missingSettings;
    private final RelayConfigs relayConfigs = new RelayConfigs();

    /**
     * @param rates           each configured relay's rate, 0 meaning no limit
     * @param relayStates     the relays' down marks, as they hold for the configuration
     * @param missingSettings the keys sending needs that are not set
     */
    CampaignOutlook(SendSettings settings, Map<String, Double> rates, RelayStates relayStates, List<String> missingSettings) {
        this.settings = settings;
        this.calendar = new SendCalendar(settings.dailyCap());
        this.routes = new RouteNow(rates, relayStates, settings.dailyCap());
        this.pace = new HeldBack(settings);
        this.missingSettings = List.copyOf(missingSettings);
    }

    /** @param remaining recipients still to send: pending, retry and sending */
    Result read(Connection c, Campaign campaign, RelayRoute route, long remaining, RecipientQueue queue, Instant now)
            throws SQLException {
        CampaignStatus status = campaign.status();
        RouteNow.View view = routes.read(c, route, campaign.rateCap().orElse(0.0), now);
        List<String> held = new ArrayList<>();
        boolean open = !status.isFinal() && remaining > 0;
        if (!status.isFinal()) {
            held.addAll(calendar.heldBackBy(c, campaign, route, now));
        }
        Optional<Instant> startAt = campaign.startAt().filter(at -> status == CampaignStatus.SCHEDULED && at.isAfter(now));
        if (open) {
            startAt.ifPresent(at -> held.add("start time " + at));
            held.addAll(view.held());
            relayConfigs.disagreements(c, now).stream().filter(d -> route.relays().contains(d.relay()))
                    .map(RelayConfigs.Disagreement::line).forEach(held::add);
            missingSettings.forEach(key -> held.add(key + " is not set: no worker sends without it"));
        }
        held.addAll(pace.of(c, campaign, remaining, queue));
        List<String> connections = open ? pace.connections(c, campaign, route) : List.of();
        return new Result(held, connections, view.configured(), view.allUp(),
                eta(c, campaign, view, startAt, remaining, now));
    }

    private Eta eta(Connection c, Campaign campaign, RouteNow.View view, Optional<Instant> startAt, long remaining,
                    Instant now) throws SQLException {
        CampaignStatus status = campaign.status();
        if (status == CampaignStatus.DRAFT || status.isFinal() || remaining == 0 || campaign.expiredAt(now)) {
            return Eta.NONE;
        }
        if (status == CampaignStatus.PAUSED) {
            return new Eta(Optional.empty(), Optional.empty(), Optional.of("resume"));
        }
        if (!missingSettings.isEmpty()) {
            return new Eta(Optional.empty(), Optional.empty(), Optional.of(String.join(" and ", missingSettings)
                    + (missingSettings.size() == 1 ? " is set" : " are set")));
        }
        Optional<Instant> resumes = startAt;
        if (view.allDownUntil().isPresent() && (resumes.isEmpty() || view.allDownUntil().get().isAfter(resumes.get()))) {
            resumes = view.allDownUntil();
        }
        return EtaEstimate.of(now, new EtaEstimate.Inputs(remaining, view.rateNow(), pace.paced(c, campaign), resumes,
                campaign.windows(), settings.dailyCap(), view.usedToday()));
    }
}
