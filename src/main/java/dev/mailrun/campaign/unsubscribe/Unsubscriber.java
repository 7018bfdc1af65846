package dev.mailrun.campaign.unsubscribe;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.CampaignSegmentTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Carries out a verified unsubscribe request, the one-click link's and the mailto address's alike, in a
 * transaction of its own ({@link UnsubscribeEffect}: a message of a campaign sent to lists leaves those
 * lists, one sent to a segment every list; any other puts the address on the suppression list), and
 * says what a request for a campaign's message would leave ({@link #scope}), for the page that asks.
 */
public final class Unsubscriber {

    /**
     * What an unsubscribe request achieved. ALREADY_SUPPRESSED: nothing changed, the address being
     * suppressed already or, for a list or segment campaign, off its lists already.
     */
    public enum Result { UNSUBSCRIBED, ALREADY_SUPPRESSED, INVALID_ADDRESS }

    /** How the request came: the List-Unsubscribe-Post one-click link, a message to the mailto address, a provider's webhook. */
    public enum Method {
        ONE_CLICK("one-click"), MAILTO("mailto"), PROVIDER("provider");

        private final String wireName;

        Method(String wireName) {
            this.wireName = wireName;
        }

        String wireName() {
            return wireName;
        }
    }

    /**
     * What an unsubscribe from a campaign's message leaves: the campaign's lists by name (a campaign sent
     * to lists only), every list (one sent to a segment), or, neither, mail from the sender at all.
     * {@code language}: the pages' language of the first of those lists that has its own; empty where
     * none has, or no list is named.
     */
    public record Scope(List<String> lists, boolean everyList, Optional<String> language) {

        public Scope {
            lists = List.copyOf(lists);
        }

        /** Neither lists nor every list: the address is suppressed. */
        public boolean everything() {
            return lists.isEmpty() && !everyList;
        }
    }

    private final DataSource dataSource;
    private final Clock clock;
    private final UnsubscribeEffect effect;
    private final CampaignListTable lists = new CampaignListTable();
    private final CampaignSegmentTable segments = new CampaignSegmentTable();

    public Unsubscriber(DataSource dataSource, SuppressionTable suppressions, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.effect = new UnsubscribeEffect(suppressions);
    }

    /** A one-click request. */
    public Result unsubscribe(UnsubscribeTarget target) throws SQLException {
        return unsubscribe(target, Method.ONE_CLICK);
    }

    /** Idempotent: a second request for the same address changes nothing and says so ({@link UnsubscribeEffect}). */
    public Result unsubscribe(UnsubscribeTarget target, Method method) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> effect.apply(c, target, method, Optional.empty(), clock.instant()));
    }

    /** What a request about a message of campaign {@code campaignId} leaves, read now. */
    public Scope scope(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (!segments.of(c, campaignId).isEmpty()) {
                return new Scope(List.of(), true, Optional.empty());
            }
            List<CampaignListTable.Target> targets = lists.of(c, campaignId);
            return new Scope(targets.stream().map(CampaignListTable.Target::name).toList(), false,
                    targets.stream().map(CampaignListTable.Target::language).flatMap(Optional::stream).findFirst());
        }
    }
}
