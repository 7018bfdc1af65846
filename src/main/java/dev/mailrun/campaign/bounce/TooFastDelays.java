package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.model.AdaptiveRate;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.store.AdaptedRateTable;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.mail.smtp.TooFast;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * Delayed DSNs that say the sender is too fast for a domain ("4.7.0 … unusual rate", "4.7.28 rate
 * limited"): a relay that queues first and delivers later reports the provider's deferral this way,
 * not in its SMTP reply. Such a report halves the rate of the recipient's domain group exactly as a
 * synchronous "421 4.7.0" does — the same row in {@code adapted_rate}, the same rule
 * ({@link AdaptiveRate#DOMAIN}) — so every sending worker slows that group at its next renewal.
 */
public final class TooFastDelays {

    /** Slows nothing down (no domain groups). */
    static final TooFastDelays NONE = new TooFastDelays(DomainGroups.NONE, 0);

    private final DomainGroups groups;
    private final double relayRate;
    private final AdaptedRateTable table = new AdaptedRateTable();

    /** @param relayRate the fastest configured relay's rate: what an uncapped group adapts from, as the sending path's pace does */
    public TooFastDelays(DomainGroups groups, double relayRate) {
        this.groups = groups;
        this.relayRate = relayRate;
    }

    /**
     * Halves the rate of the reported recipient's group when {@code report} is a too-fast delay, in
     * the caller's transaction (the one applying the report, so a report read twice counts once).
     *
     * @return the group slowed down, if any
     */
    Optional<String> apply(Connection c, BounceReport report, Instant now) throws SQLException {
        if (report.kind() != BounceKind.SOFT || report.recipient().isEmpty()
                || TooFast.ofDelay(report.status(), report.diagnostic()).filter(s -> s == TooFast.Scope.DOMAIN).isEmpty()) {
            return Optional.empty();
        }
        String address = report.recipient().get();
        Optional<DomainGroup> group = groups.of(address.substring(address.lastIndexOf('@') + 1).toLowerCase(Locale.ROOT));
        if (group.isEmpty()) {
            return Optional.empty();
        }
        double configured = group.get().rate() > 0 ? group.get().rate() : relayRate;
        if (configured <= 0) {
            return Optional.empty();
        }
        AdaptiveRate rule = AdaptiveRate.DOMAIN;
        table.halve(c, group.get().key(), configured, AdaptiveRate.floor(configured), rule.guard(), now,
                "delayed DSN " + report.status() + " " + report.diagnostic());
        return group.map(DomainGroup::name);
    }
}
