package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.store.RelayConnectionTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A running campaign that sent under {@link #SHARE} of its route's rate over the whole last minute
 * while recipients were due, with no hold named for it: status never shows "-" then, but says so with
 * the figures the sending runs leave ({@code relay_connections}: connections open and wanted, the time
 * per message), so that the operator can tell a relay too far away for the connections from a
 * worker or database too slow for them.
 */
final class UnderRate {

    static final double SHARE = 0.95;

    private final RelayConnectionTable connections = new RelayConnectionTable();

    /**
     * @param sentLastMinute sent over the last minute
     * @param fullMinute     the campaign was already sending before the minute began (a first minute
     *                       that started part-way is not a slow one)
     * @param configured     the route's configured rate now; 0 = no limit (never under it)
     * @param held           what else holds it back: any of it explains the rate
     */
    Optional<String> read(Connection c, Campaign campaign, RelayRoute route, long remaining, long sentLastMinute,
                          boolean fullMinute, double configured, List<String> held, Duration over) throws SQLException {
        double rate = sentLastMinute / (over.toMillis() / 1000.0);
        if (campaign.status() != CampaignStatus.RUNNING || remaining == 0 || configured <= 0 || !fullMinute
                || !held.isEmpty() || rate >= SHARE * configured) {
            return Optional.empty();
        }
        Map<String, RelayConnectionTable.RelayPools> pools = connections.pools(c);
        List<String> figures = new ArrayList<>();
        for (String relay : route.relays()) {
            RelayConnectionTable.RelayPools p = pools.get(relay);
            if (p != null) {
                figures.add("relay " + relay + ": " + p.open() + " connection(s) open of " + p.target() + " wanted, "
                        + p.messageMillis().map(ms -> ms + " ms a message").orElse("no time per message measured yet"));
            }
        }
        return Optional.of(String.format(Locale.ROOT, "sending at %.1f/s, %.0f%% of %s over the last minute; "
                        + "no limit explains it (the relays' replies, the worker or the database are slower than the rate): %s",
                rate, 100 * rate / configured, HeldBack.perSecond(configured),
                figures.isEmpty() ? "no sending run reports its connections" : String.join("; ", figures)));
    }
}
