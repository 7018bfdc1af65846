package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.store.RelayConnectionTable;
import dev.mailrun.mail.smtp.ConnectionReport;
import java.time.Duration;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.AdaptedRateTable.Adapted;
import dev.mailrun.campaign.store.AdaptedRateTable;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pace part of what holds a campaign back right now, as short phrases for {@code campaign
 * status} ("held back by") and {@code held_back_by} in its JSON:
 * <ul>
 *   <li>{@code domain gmail capped at 5/s} — a domain group with a cap, while the campaign still
 *       has recipients there;</li>
 *   <li>{@code domain gmail adapted to 2.5/s} — a group slowed down after "too fast" replies;</li>
 *   <li>{@code relay default rate adapted to 12.5/s} — a relay's rate lowered after its own
 *       throttling (every relay whose rate is adapted: the campaign's route may use any);</li>
 *   <li>{@code connections — 4 at 450 ms per message reach 8.9/s of 50/s; growing to 24} — while
 *       the campaign runs, a relay of its route whose connections (summed over the runs sending
 *       through it) cannot reach its rate at the measured time per message ({@link #connections};
 *       {@code connections to relay b — …} on a route of several relays).</li>
 * </ul>
 * Nothing for a campaign that is finished or has nobody left to send to.
 */
final class HeldBack {

    private final SendSettings settings;
    private final AdaptedRateTable adapted = new AdaptedRateTable();
    private final RelayConnectionTable connections = new RelayConnectionTable();
    private final RecipientQueue queue = new RecipientQueue();

    HeldBack(SendSettings settings) {
        this.settings = settings;
    }

    List<String> of(Connection c, Campaign campaign, long remaining, RecipientQueue recipients) throws SQLException {
        List<String> held = new ArrayList<>();
        if (campaign.status().isFinal() || remaining == 0) {
            return held;
        }
        List<String> names = new ArrayList<>();
        settings.domainGroups().groups().forEach(g -> names.add(g.key()));
        Map<String, Adapted> rows = adapted.read(c, names);
        for (DomainGroup g : settings.domainGroups().groups()) {
            Adapted a = rows.get(g.key());
            if ((a != null || g.rate() > 0) && recipients.hasRemainingAt(c, campaign.id(), g.domains())) {
                held.add(a != null ? "domain " + g.name() + " adapted to " + perSecond(a.rate())
                        : "domain " + g.name() + " capped at " + perSecond(g.rate()));
            }
        }
        for (Adapted a : adapted.all(c)) {
            if (a.name().startsWith("relay:")) {
                held.add("relay " + a.name().substring("relay:".length()) + " rate adapted to " + perSecond(a.rate()));
            }
        }
        return held;
    }

    /**
     * While {@code campaign} runs, each relay of its route whose pools (summed over the runs sending
     * through it now) cannot reach its rate at the measured time per message.
     */
    List<String> connections(Connection c, Campaign campaign, RelayRoute route) throws SQLException {
        List<String> held = new ArrayList<>();
        if (campaign.status() != CampaignStatus.RUNNING) {
            return held;
        }
        Map<String, RelayConnectionTable.RelayPools> pools = connections.pools(c);
        for (String relay : route.relays()) {
            RelayConnectionTable.RelayPools p = pools.get(relay);
            if (p == null) {
                continue;
            }
            ConnectionReport report = new ConnectionReport(p.open(), p.target(), p.ceiling(), p.needed(),
                    p.messageMillis().map(Duration::ofMillis), p.rate());
            if (report.limitsRate()) {
                held.add((route.relays().size() == 1 ? "connections — " : "connections to relay " + relay + " — ")
                        + report.describe());
            }
        }
        return held;
    }

    /**
     * The domain groups that pace {@code campaign} now — capped, or adapted after "too fast" replies —
     * each with what the campaign has left there and the group's rate: the ETA cannot be shorter than
     * the slowest of them needs.
     */
    List<EtaEstimate.Paced> paced(Connection c, Campaign campaign) throws SQLException {
        List<EtaEstimate.Paced> paced = new ArrayList<>();
        Map<String, Adapted> rows = adapted.read(c, settings.domainGroups().groups().stream().map(DomainGroup::key).toList());
        for (DomainGroup g : settings.domainGroups().groups()) {
            Adapted a = rows.get(g.key());
            double rate = a != null ? a.rate() : g.rate();
            if (rate > 0) {
                long left = queue.remainingAt(c, campaign.id(), g.domains());
                if (left > 0) {
                    paced.add(new EtaEstimate.Paced(left, rate));
                }
            }
        }
        return paced;
    }

    static String perSecond(double rate) {
        return BigDecimal.valueOf(rate).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + "/s";
    }
}
