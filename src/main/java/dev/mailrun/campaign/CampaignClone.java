package dev.mailrun.campaign;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.CampaignSegmentTable;
import dev.mailrun.campaign.store.ContentPinTable.CampaignPin;
import dev.mailrun.campaign.store.ContentPinTable.VariantPin;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A new draft from an existing campaign: its content (the same pinned versions, its own and its
 * variants'), its settings (its web version's too), route, lists, segments, files, tracking and A/B test — not its recipients, its start or its
 * expiry (times of the campaign cloned, not of the new one). One transaction: all of it or nothing.
 */
final class CampaignClone {

    /** Who pins a clone's content, in the record of its pins. */
    static final String CLONED = "clone of campaign ";
    private static final int MAX_NAME = 200;
    private static final String COPY = " (copy)";

    private final DataSource dataSource;
    private final Clock clock;
    private final CampaignTable campaigns = new CampaignTable();
    private final AttachmentTable files = new AttachmentTable();
    private final TrackedLinkTable tracking = new TrackedLinkTable();
    private final AbTable abTests = new AbTable();
    private final ContentPinTable pins = new ContentPinTable();
    private final CampaignListTable lists = new CampaignListTable();
    private final CampaignSegmentTable segments = new CampaignSegmentTable();

    CampaignClone(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /**
     * @param name the new campaign's name; empty: the original's with " (copy)"
     * @return the new draft's id
     * @throws CampaignException when there is no such campaign
     * @throws dev.mailrun.campaign.model.InvalidFields when the name is not a valid campaign name
     */
    long cloneOf(long id, Optional<String> name) throws SQLException {
        Instant now = clock.instant();
        return Transactions.inTransaction(dataSource, c -> {
            Campaign from = campaigns.find(c, id).orElseThrow(() -> new CampaignException("no campaign with id " + id));
            NewCampaign copy = new NewCampaign(name.orElse(copyName(from.name())), from.template(), from.fromAddress(),
                    from.fromName(), from.replyTo(), from.subjectOverride(), Optional.empty(), from.rateCap(), from.windows(),
                    Optional.empty(), from.headers(), from.webVersion());
            long clone = campaigns.insert(c, copy, now);
            campaigns.setRoute(c, clone, campaigns.route(c, id), now);
            lists.set(c, clone, lists.of(c, id).stream().map(CampaignListTable.Target::listId).toList());
            segments.set(c, clone, segments.of(c, id).stream().map(CampaignSegmentTable.Target::segmentId).toList());
            files.insert(c, clone, files.load(c, id), now);
            Optional<dev.mailrun.campaign.model.TrackingMode> mode = tracking.mode(c, id);
            if (mode.isPresent()) {
                tracking.setMode(c, clone, mode.get(), now);
            }
            Optional<AbState> ab = abTests.find(c, id, false);
            if (ab.isPresent()) {
                abTests.insert(c, clone, ab.get().test());
            }
            String by = CLONED + id;
            Optional<CampaignPin> own = pins.campaign(c, id, false);
            if (own.isPresent() && own.get().version().isPresent()) {
                pins.pinCampaign(c, clone, Optional.empty(), new ContentPin(own.get().template(), own.get().version().get()), by, now);
            }
            for (VariantPin v : pins.variants(c, id)) {
                if (v.version().isPresent()) {
                    pins.pinVariant(c, clone, v.variant(), Optional.empty(), new ContentPin(v.template(), v.version().get()), by, now);
                }
            }
            return clone;
        });
    }

    private static String copyName(String name) {
        return name.length() + COPY.length() <= MAX_NAME ? name + COPY : name.substring(0, MAX_NAME - COPY.length()) + COPY;
    }
}
